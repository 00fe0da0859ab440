// Consumer groups of the embedded bus: members of one group on one topic share its
// partitions (round-robin by join order); a join or a leave rebalances. Each owned partition
// has up to `concurrency` records running in the handler at once, started in offset order, and
// commits the offset past the contiguous prefix of finished records (the contract's
// RecordHandler): a finished record behind a running one waits for it to be committed.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawRecord, RecordHandler } from '../contract.ts';
import type { PartitionLog } from './partition-log.ts';
import type { OffsetStore } from './offset-store.ts';
import { log } from '../../process/log.ts';
import { busLag } from '../../process/metrics.ts';

const HANDLER_FAILURE_PAUSE_MS = 500;

/** A record handed to the handler and not yet committed. */
interface Entry {
  offset: number;
  done: boolean;
}

class PartitionRunner {
  readonly #controller = new AbortController();
  #loop: Promise<void> = Promise.resolve();
  /** Records handed out and not committed, in offset order. */
  readonly #window: Entry[] = [];
  readonly #running = new Set<Promise<void>>();
  /** Resolved when a record finishes (or the runner stops): room for the next one. */
  #changed = Promise.withResolvers<void>();
  /** The next offset to commit: every record before it finished. */
  #committed = 0;

  readonly partition: PartitionLog;
  readonly group: GroupState;
  readonly handler: RecordHandler;
  readonly concurrency: number;

  constructor(partition: PartitionLog, group: GroupState, handler: RecordHandler, concurrency: number) {
    this.partition = partition;
    this.group = group;
    this.handler = handler;
    this.concurrency = concurrency;
  }

  start(): void {
    this.#loop = this.#run();
  }

  /** Abort the records in flight, let them finish (committing the finished prefix) and stop. */
  async stop(): Promise<void> {
    this.#controller.abort();
    this.#notify();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { partition: p } = this;
    const { name: group, offsets } = this.group;
    const signal = this.#controller.signal;
    let position = Math.max(offsets.committed(group, p.topic, p.partition) ?? p.startOffset, p.startOffset);
    this.#committed = position;
    try {
      while (!signal.aborted) {
        if (this.#running.size >= this.concurrency) {
          await this.#changed.promise;
          continue;
        }
        const record = p.read(position);
        this.#lag();
        if (!record) {
          await p.waitForAppend(signal);
          continue;
        }
        position += 1;
        this.#start(record, signal);
      }
    } finally {
      await Promise.all(this.#running);
    }
  }

  #start(record: RawRecord, signal: AbortSignal): void {
    const entry: Entry = { offset: record.offset, done: false };
    this.#window.push(entry);
    const task = this.#handle(record, entry, signal).finally(() => {
      this.#running.delete(task);
      this.#notify();
    });
    this.#running.add(task);
  }

  /** Call the handler until it resolves; a rejection after the abort leaves the record unfinished. */
  async #handle(record: RawRecord, entry: Entry, signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.handler(record, signal);
        break;
      } catch (error) {
        if (signal.aborted) return; // revoked mid-record: not committed, delivered again
        const { topic, partition, offset } = record;
        log.error(
          { topic, partition, offset, group: this.group.name, err: String(error) },
          'record handler failed; retrying the record',
        );
        await sleep(HANDLER_FAILURE_PAUSE_MS, undefined, { signal }).catch(() => {});
        if (signal.aborted) return;
      }
    }
    entry.done = true;
    this.#commitPrefix();
  }

  /** Commit past the finished records at the front of the window; a record still running holds the rest back. */
  #commitPrefix(): void {
    let next: number | undefined;
    while (this.#window[0]?.done) next = this.#window.shift()!.offset + 1;
    if (next === undefined) return;
    const { topic, partition } = this.partition;
    this.group.offsets.commit(this.group.name, topic, partition, next, this.group.persist);
    this.partition.release(this.group.name, next);
    this.#committed = next;
    this.#lag();
  }

  /** Records not yet committed: waiting in the log or in flight. */
  #lag(): void {
    const p = this.partition;
    busLag
      .labels({ topic: p.topic, group: this.group.name, partition: String(p.partition) })
      .set(Math.max(0, p.endOffset - this.#committed));
  }

  #notify(): void {
    this.#changed.resolve();
    this.#changed = Promise.withResolvers<void>();
  }
}

/** What a group's runners need: its name, where offsets live, whether they are kept on disk. */
export interface GroupState {
  readonly name: string;
  readonly offsets: OffsetStore;
  readonly persist: boolean;
}

export interface Member {
  readonly id: number;
  readonly handler: RecordHandler;
  readonly concurrency: number;
  readonly runners: Map<number, PartitionRunner>;
}

export class ConsumerGroup implements GroupState {
  readonly name: string;
  readonly offsets: OffsetStore;
  readonly persist: boolean;
  readonly #partitions: () => PartitionLog[];
  readonly #members: Member[] = [];
  #nextId = 0;
  #rebalancing: Promise<void> = Promise.resolve();

  constructor(name: string, partitions: () => PartitionLog[], offsets: OffsetStore, persist: boolean) {
    this.name = name;
    this.#partitions = partitions;
    this.offsets = offsets;
    this.persist = persist;
  }

  get size(): number {
    return this.#members.length;
  }

  async join(handler: RecordHandler, concurrency = 1): Promise<Member> {
    const member: Member = { id: this.#nextId++, handler, concurrency, runners: new Map() };
    this.#members.push(member);
    await this.rebalance();
    return member;
  }

  async leave(member: Member): Promise<void> {
    const index = this.#members.indexOf(member);
    if (index === -1) return;
    this.#members.splice(index, 1);
    await Promise.all([...member.runners.values()].map((r) => r.stop()));
    member.runners.clear();
    await this.rebalance();
  }

  /** Reassign partitions; revoked ones are stopped before anyone starts them again. */
  rebalance(): Promise<void> {
    this.#rebalancing = this.#rebalancing.then(async () => {
      const logs = this.#partitions();
      const owner = (p: number) => this.#members[p % this.#members.length];
      await Promise.all(
        this.#members.flatMap((m) =>
          [...m.runners]
            .filter(([p]) => owner(p) !== m)
            .map(async ([p, runner]) => {
              m.runners.delete(p);
              await runner.stop();
            }),
        ),
      );
      for (const log of logs) {
        const member = owner(log.partition);
        if (!member || member.runners.has(log.partition)) continue;
        const runner = new PartitionRunner(log, this, member.handler, member.concurrency);
        member.runners.set(log.partition, runner);
        runner.start();
      }
    });
    return this.#rebalancing;
  }
}
