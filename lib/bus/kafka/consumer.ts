// One member of a consumer group on one topic (one kafkajs consumer per Transport.consume).
//
// kafkajs fetches a batch per owned partition and hands each batch to eachBatch; partitions
// run side by side, the records of one partition one after the other. Here every record is
// handed to the RecordHandler and its offset+1 committed only after the handler resolved
// (autoCommit is off; commits.ts batches them). Heartbeats go on while a handler runs, so a long handler keeps its
// partitions; when a heartbeat learns that the group is rebalancing, or the member stops, the
// signal of every record in flight is aborted (kafkajs uses the eager protocol: a rebalance
// takes all partitions away), and a record that then fails is not committed but delivered again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Consumption, RecordHandler, RawRecord } from '../contract.ts';
import type { Namespace, ResolvedKafkaOptions } from './client.ts';
import { isRevocation, toRawRecord } from './records.ts';
import { OffsetCommits } from './commits.ts';
import type { Logger } from '../../log.ts';
import { busLag } from '../../metrics.ts';

const HANDLER_FAILURE_PAUSE_MS = 500;
const JOIN_TIMEOUT_MS = 120_000;

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
  readonly #options: ResolvedKafkaOptions;
  readonly #log: Logger;
  readonly #inFlight = new Set<AbortController>();
  readonly #commits: OffsetCommits;
  #assignment: number[] = [];
  #revoked = false;
  #stopping: Promise<void> | undefined;

  /** Join `group` on `topic` (labld names); resolves once the member owns its first assignment. */
  static async join(
    topic: string,
    group: string,
    handler: RecordHandler,
    member: MemberOptions,
  ): Promise<GroupMember> {
    const joined = new GroupMember(topic, group, handler, member);
    await joined.#start(member.names.topic(topic));
    return joined;
  }

  private constructor(topic: string, group: string, handler: RecordHandler, member: MemberOptions) {
    this.topic = topic;
    this.group = group;
    this.#handler = handler;
    this.#options = member.options;
    this.#log = member.logger.child({ topic, group });
    this.#commits = new OffsetCommits(member.names.topic(topic));
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

  /** Abort what is in flight, let it finish (committing what succeeded), leave the group. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#abortInFlight();
      await this.#consumer.disconnect();
      this.#assignment = [];
    })();
    return this.#stopping;
  }

  async #start(clusterTopic: string): Promise<void> {
    const { GROUP_JOIN, REBALANCING, CRASH } = this.#consumer.events;
    this.#consumer.on(GROUP_JOIN, ({ payload }) => {
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
      await this.#consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.#options.partitionsConsumedConcurrently,
        eachBatch: (payload) => this.#batch(payload),
      });
      await firstJoin;
    } catch (error) {
      cancelJoin();
      await this.#consumer.disconnect().catch(() => {});
      throw error;
    }
  }

  async #batch(payload: EachBatchPayload): Promise<void> {
    const { batch, heartbeat, isRunning, isStale, resolveOffset, commitOffsetsIfNecessary } = payload;
    const lag = busLag.labels({ topic: this.topic, group: this.group, partition: String(batch.partition) });
    try {
      for (const message of batch.messages) {
        if (!isRunning() || isStale() || this.#revoked) return;
        const record = toRawRecord(this.topic, batch.partition, message);
        if (!(await this.#handle(record, heartbeat))) return;
        this.#commits.mark(batch.partition, record.offset + 1, commitOffsetsIfNecessary);
        resolveOffset(message.offset);
        lag.set(Math.max(0, Number(batch.highWatermark) - record.offset - 1));
        await heartbeat();
      }
    } finally {
      // Before kafkajs fetches again, rejoins or leaves: what was handled is committed.
      await this.#commits.drain();
    }
  }

  /** Run the handler until it succeeds (true) or its signal is aborted (false: not committed). */
  async #handle(record: RawRecord, heartbeat: () => Promise<void>): Promise<boolean> {
    const controller = new AbortController();
    const { signal } = controller;
    this.#inFlight.add(controller);
    if (this.#revoked || this.#stopping) controller.abort();
    const keepAlive = setInterval(() => {
      heartbeat().catch((error: unknown) => {
        if (isRevocation(error)) this.#revoke();
      });
    }, this.#options.heartbeatIntervalMs);
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
      clearInterval(keepAlive);
      this.#inFlight.delete(controller);
    }
  }

  /** The group is rebalancing (or this member was dropped): every partition is being taken away. */
  #revoke(): void {
    this.#revoked = true;
    this.#assignment = [];
    this.#abortInFlight();
  }

  #abortInFlight(): void {
    for (const controller of this.#inFlight) controller.abort();
  }
}
