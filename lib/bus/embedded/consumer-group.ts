// Consumer groups of the embedded bus: members of one group on one topic share its
// partitions (round-robin by join order); a join or a leave rebalances. Each owned partition
// runs one record at a time and commits offset+1 only after the handler resolved.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordHandler } from '../contract.ts';
import type { PartitionLog } from './partition-log.ts';
import type { OffsetStore } from './offset-store.ts';
import { log } from '../../log.ts';
import { busLag } from '../../metrics.ts';

const HANDLER_FAILURE_PAUSE_MS = 500;

class PartitionRunner {
  readonly #controller = new AbortController();
  #loop: Promise<void> = Promise.resolve();

  readonly partition: PartitionLog;
  readonly group: GroupState;
  readonly handler: RecordHandler;

  constructor(partition: PartitionLog, group: GroupState, handler: RecordHandler) {
    this.partition = partition;
    this.group = group;
    this.handler = handler;
  }

  start(): void {
    this.#loop = this.#run();
  }

  /** Finish the record in flight (committing it if it succeeded) and stop. */
  async stop(): Promise<void> {
    this.#controller.abort();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { partition: p } = this;
    const { name: group, offsets, persist } = this.group;
    const signal = this.#controller.signal;
    let position = Math.max(offsets.committed(group, p.topic, p.partition) ?? p.startOffset, p.startOffset);
    const lag = busLag.labels({ topic: p.topic, group, partition: String(p.partition) });
    while (!signal.aborted) {
      const record = p.read(position);
      if (!record) {
        lag.set(0);
        await p.waitForAppend(signal);
        continue;
      }
      lag.set(p.endOffset - position);
      try {
        await this.handler(record, signal);
      } catch (error) {
        if (signal.aborted) return; // revoked mid-record: not committed, delivered again
        log.error(
          { topic: p.topic, partition: p.partition, offset: position, group, err: String(error) },
          'record handler failed; retrying the record',
        );
        await sleep(HANDLER_FAILURE_PAUSE_MS, undefined, { signal }).catch(() => {});
        continue;
      }
      position += 1;
      offsets.commit(group, p.topic, p.partition, position, persist);
    }
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

  async join(handler: RecordHandler): Promise<Member> {
    const member: Member = { id: this.#nextId++, handler, runners: new Map() };
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
        const runner = new PartitionRunner(log, this, member.handler);
        member.runners.set(log.partition, runner);
        runner.start();
      }
    });
    return this.#rebalancing;
  }
}
