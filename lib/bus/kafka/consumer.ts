// One member of a consumer group on one topic (one kafkajs consumer per Transport.consume).
//
// kafkajs fetches a batch per owned partition and hands each batch to eachBatch; it fetches
// nothing more from that broker until every batch of the fetch has returned. So eachBatch only
// hands records out: each partition keeps a window of the records handed out and not yet
// committed, of which up to `concurrency` run at once, and eachBatch returns once every record
// of its batch is handed out (waiting, with heartbeats, while `concurrency` run), so records
// published later are fetched while earlier ones still run. resolveOffset moves kafkajs's fetch position past each record handed out
// (autoCommit is off, so that commits nothing); the commit, offset+1 of the last record of the
// window's finished prefix, is marked when a record finishes (commits.ts batches them) and
// never passes a record still running. When a heartbeat learns that the group is rebalancing,
// or the member stops, the signal of every record in flight is aborted (kafkajs uses the eager
// protocol: a rebalance takes all partitions away); a revoked window commits nothing more, and
// after the rejoin kafkajs fetches from the committed offsets, so what was not committed —
// the unfinished records and the finished ones behind them — is delivered again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { ConsumeOptions, Consumption, RecordHandler, RawRecord } from '../contract.ts';
import type { Namespace, ResolvedKafkaOptions } from './client.ts';
import { isRevocation, toRawRecord } from './records.ts';
import { OffsetCommits, type Commit } from './commits.ts';
import type { Logger } from '../../process/log.ts';
import { busLag } from '../../process/metrics.ts';

const HANDLER_FAILURE_PAUSE_MS = 500;
const JOIN_TIMEOUT_MS = 120_000;

/** The records of one partition handed to the handler and not yet committed, in offset order. */
interface Window {
  partition: number;
  entries: { offset: number; done: boolean }[];
  /** Records of the window whose handler still runs (at most the member's concurrency). */
  running: number;
  /** The offset after the last record handed out. */
  next: number;
  /** The partition was taken away (or re-assigned): this window commits nothing more. */
  revoked: boolean;
  /** Resolved when a record of the window finishes or the window ends: room for the next. */
  changed: PromiseWithResolvers<void>;
}

export interface MemberOptions {
  kafka: Kafka;
  names: Namespace;
  options: ResolvedKafkaOptions;
  logger: Logger;
}

export class GroupMember implements Consumption {
  readonly topic: string;
  readonly group: string;
  readonly #consumer: Consumer;
  readonly #handler: RecordHandler;
  readonly #concurrency: number;
  readonly #options: ResolvedKafkaOptions;
  readonly #log: Logger;
  readonly #inFlight = new Set<AbortController>();
  /** Every record task still running, those of revoked windows too. */
  readonly #running = new Set<Promise<void>>();
  /** The windows of the current assignment, by partition. */
  readonly #windows = new Map<number, Window>();
  readonly #clusterTopic: string;
  #commits: OffsetCommits;
  #assignment: number[] = [];
  #revoked = false;
  #stopping: Promise<void> | undefined;
  /** The first join succeeded: a crash from now on is recovered from, not a failed start. */
  #started = false;
  #recovering: Promise<void> | undefined;

  /** Join `group` on `topic` (labld names); resolves once the member owns its first assignment. */
  static async join(
    topic: string,
    group: string,
    handler: RecordHandler,
    member: MemberOptions,
    options: ConsumeOptions = { concurrency: 1 },
  ): Promise<GroupMember> {
    const joined = new GroupMember(topic, group, handler, member, options);
    await joined.#start();
    return joined;
  }

  private constructor(
    topic: string,
    group: string,
    handler: RecordHandler,
    member: MemberOptions,
    options: ConsumeOptions,
  ) {
    this.topic = topic;
    this.group = group;
    this.#handler = handler;
    this.#concurrency = options.concurrency;
    this.#options = member.options;
    this.#log = member.logger.child({ topic, group });
    this.#clusterTopic = member.names.topic(topic);
    this.#commits = new OffsetCommits(this.#clusterTopic);
    this.#consumer = member.kafka.consumer({
      groupId: member.names.group(group),
      sessionTimeout: member.options.sessionTimeoutMs,
      heartbeatInterval: member.options.heartbeatIntervalMs,
      maxWaitTimeInMs: member.options.maxWaitTimeMs,
      allowAutoTopicCreation: false,
    });
  }

  assignment(): number[] {
    return [...this.#assignment];
  }

  /** Abort what is in flight, let it finish (committing the finished prefixes), leave the group. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      try {
        // Nothing new is handed out now; a paused consumer idles instead of fetching the same records again.
        this.#consumer.pause([{ topic: this.#clusterTopic }]);
      } catch {
        // not running (start-up failed): nothing is fetched anyway
      }
      this.#abortInFlight();
      for (const window of this.#windows.values()) notify(window);
      while (this.#running.size > 0) await Promise.all(this.#running);
      await this.#commits.drain().catch((error: unknown) => {
        this.#log.warn({ err: String(error) }, 'last commits failed; those records are delivered again');
      });
      await this.#recovering; // a rejoin under way ends before the member leaves
      await this.#consumer.disconnect();
      this.#assignment = [];
    })();
    return this.#stopping;
  }

  async #start(): Promise<void> {
    const clusterTopic = this.#clusterTopic;
    const { GROUP_JOIN, REBALANCING, CRASH } = this.#consumer.events;
    this.#consumer.on(GROUP_JOIN, ({ payload }) => {
      // A new generation starts at the committed offsets; windows of an earlier one (left by a
      // rejoin that announced no rebalance, e.g. after UNKNOWN_MEMBER_ID) must commit nothing,
      // and a commit of the earlier generation that failed is no failure of this one.
      this.#revoke();
      this.#commits = new OffsetCommits(clusterTopic);
      this.#revoked = false;
      this.#assignment = [...(payload.memberAssignment[clusterTopic] ?? [])].sort((a, b) => a - b);
      this.#log.debug({ assignment: this.#assignment }, 'joined the group');
    });
    this.#consumer.on(REBALANCING, () => this.#revoke());
    this.#consumer.on(CRASH, ({ payload }) => {
      this.#revoke();
      // kafkajs restarts after a retriable error (e.g. a coordinator still loading).
      if (payload.restart) this.#log.warn({ err: String(payload.error) }, 'consumer restarts after an error');
      else this.#log.error({ err: String(payload.error) }, 'consumer stopped by an error');
      // kafkajs arms its restart timer right after this event, even when the member is being
      // stopped; stopping once more clears it, so a stopped member never comes back.
      if (this.#stopping) setImmediate(() => void this.#consumer.disconnect().catch(() => {}));
      // kafkajs gives up on an error it deems fatal (e.g. the broker away longer than its
      // retries): the member would sit out of its group for good, its records never handled.
      else if (!payload.restart && this.#started) this.#recovering ??= this.#recover();
    });
    let cancelJoin = () => {};
    const firstJoin = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no assignment in group ${this.group} after ${JOIN_TIMEOUT_MS} ms`)),
        JOIN_TIMEOUT_MS,
      );
      const done = (error?: Error) => {
        clearTimeout(timer);
        removeJoin();
        removeCrash();
        if (error) reject(error);
        else resolve();
      };
      const removeJoin = this.#consumer.on(GROUP_JOIN, () => done());
      const removeCrash = this.#consumer.on(CRASH, ({ payload }) => {
        if (!payload.restart) done(payload.error);
      });
      cancelJoin = () => done(new Error('start-up failed'));
    });
    firstJoin.catch(() => {}); // awaited below, or cancelled when start-up fails earlier
    try {
      await this.#consumer.connect();
      await this.#consumer.subscribe({ topics: [clusterTopic], fromBeginning: true });
      await this.#run();
      await firstJoin;
      this.#started = true;
    } catch (error) {
      cancelJoin();
      await this.#consumer.disconnect().catch(() => {});
      throw error;
    }
  }

  /** Joins the group again after kafkajs gave up, until it succeeds or the member stops. */
  async #recover(): Promise<void> {
    for (let attempt = 1; !this.#stopping; attempt++) {
      await sleep(Math.min(500 * 2 ** attempt, 10_000));
      if (this.#stopping) break;
      try {
        await this.#consumer.disconnect().catch(() => {});
        await this.#consumer.connect();
        await this.#consumer.subscribe({ topics: [this.#clusterTopic], fromBeginning: true });
        await this.#run();
        this.#log.warn({ attempt }, 'consumer joined its group again after a fatal error');
        break;
      } catch (error) {
        this.#log.warn({ err: String(error), attempt }, 'consumer could not join its group again; retrying');
      }
    }
    this.#recovering = undefined;
  }

  #run(): Promise<void> {
    return this.#consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.#options.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.#batch(payload),
    });
  }

  async #batch(payload: EachBatchPayload): Promise<void> {
    const { batch, heartbeat, isRunning, isStale, resolveOffset, commitOffsetsIfNecessary } = payload;
    const window = this.#windowOf(batch.partition);
    const highWatermark = Number(batch.highWatermark);
    try {
      for (const message of batch.messages) {
        while (window.running >= this.#concurrency && !this.#ending(window)) {
          await this.#roomIn(window, heartbeat);
        }
        if (!isRunning() || isStale() || this.#ending(window)) return;
        const record = toRawRecord(this.topic, batch.partition, message);
        // Handed out already in this generation (kafkajs fetches from the resolved position).
        if (record.offset < window.next) continue;
        this.#hand(window, record, commitOffsetsIfNecessary, highWatermark);
        resolveOffset(message.offset);
      }
    } finally {
      // A failed commit fails the batch, so kafkajs rejoins (or retries) as it would for its own.
      // Not a drain: under load, records finishing in other partitions would keep it waiting,
      // and kafkajs fetches nothing meanwhile.
      this.#commits.rethrow();
    }
  }

  /** The window of `partition` in the current assignment. */
  #windowOf(partition: number): Window {
    let window = this.#windows.get(partition);
    if (!window) {
      window = {
        partition,
        entries: [],
        running: 0,
        next: 0,
        revoked: false,
        changed: Promise.withResolvers<void>(),
      };
      this.#windows.set(partition, window);
    }
    return window;
  }

  #ending(window: Window): boolean {
    return window.revoked || this.#revoked || this.#stopping !== undefined;
  }

  /** Wait until a running record of `window` finishes; kafkajs cannot heartbeat meanwhile, so this does. */
  async #roomIn(window: Window, heartbeat: () => Promise<void>): Promise<void> {
    const keepAlive = setInterval(() => {
      heartbeat().catch((error: unknown) => {
        if (isRevocation(error)) this.#revoke();
      });
    }, this.#options.heartbeatIntervalMs);
    try {
      await window.changed.promise;
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** Hand `record` to the handler in the background; when it finishes, commit the window's finished prefix. */
  #hand(window: Window, record: RawRecord, commit: Commit, highWatermark: number): void {
    const entry = { offset: record.offset, done: false };
    window.entries.push(entry);
    window.running += 1;
    window.next = record.offset + 1;
    const task = this.#handle(record).then((finished) => {
      if (!finished || window.revoked) return;
      entry.done = true;
      let next: number | undefined;
      while (window.entries[0]?.done) next = window.entries.shift()!.offset + 1;
      if (next === undefined) return;
      this.#commits.mark(window.partition, next, commit);
      busLag
        .labels({ topic: this.topic, group: this.group, partition: String(window.partition) })
        .set(Math.max(0, highWatermark - next));
    });
    const settled = task.finally(() => {
      window.running -= 1;
      this.#running.delete(settled);
      notify(window);
    });
    this.#running.add(settled);
  }

  /** Run the handler until it succeeds (true) or its signal is aborted (false: not committed). */
  async #handle(record: RawRecord): Promise<boolean> {
    const controller = new AbortController();
    const { signal } = controller;
    this.#inFlight.add(controller);
    if (this.#revoked || this.#stopping) controller.abort();
    try {
      for (;;) {
        try {
          await this.#handler(record, signal);
          return true;
        } catch (error) {
          if (signal.aborted) return false;
          this.#log.error(
            { partition: record.partition, offset: record.offset, err: String(error) },
            'record handler failed; retrying the record',
          );
          await sleep(HANDLER_FAILURE_PAUSE_MS, undefined, { signal }).catch(() => {});
          if (signal.aborted) return false;
        }
      }
    } finally {
      this.#inFlight.delete(controller);
    }
  }

  /** The group is rebalancing (or this member was dropped): every partition is being taken away. */
  #revoke(): void {
    this.#revoked = true;
    this.#assignment = [];
    this.#abortInFlight();
    for (const window of this.#windows.values()) {
      window.revoked = true;
      notify(window);
    }
    this.#windows.clear();
  }

  #abortInFlight(): void {
    for (const controller of this.#inFlight) controller.abort();
  }
}

function notify(window: Window): void {
  window.changed.resolve();
  window.changed = Promise.withResolvers<void>();
}
