// The embedded broker: topics, partition logs, consumer groups and committed offsets of one
// data directory. One process owns a directory at a time (a LOCK file holding its pid); all
// embedded transports of that process share the one broker.
import { mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OutgoingRecord, RawRecord, ReplayFrom, TopicDeclaration } from '../contract.ts';
import { PartitionLog } from './partition-log.ts';
import { OffsetStore } from './offset-store.ts';
import { ConsumerGroup } from './consumer-group.ts';
import { partitionFor } from '../partitioner.ts';

interface Topic {
  declaration: TopicDeclaration;
  logs: PartitionLog[];
  sent: number;
}

const open = new Map<string, { broker: EmbeddedBroker; users: number }>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class EmbeddedBroker {
  readonly dir: string;
  readonly #fsync: boolean;
  readonly #topics = new Map<string, Topic>();
  readonly #groups = new Map<string, ConsumerGroup>();
  readonly #offsets: OffsetStore;

  /** The broker of `dir` in this process, opened on first use. */
  static acquire(dir: string, options: { fsync: boolean }): EmbeddedBroker {
    const key = resolve(dir);
    let entry = open.get(key);
    if (!entry) {
      entry = { broker: new EmbeddedBroker(key, options.fsync), users: 0 };
      open.set(key, entry);
    }
    entry.users += 1;
    return entry.broker;
  }

  private constructor(dir: string, fsync: boolean) {
    this.dir = dir;
    this.#fsync = fsync;
    mkdirSync(join(dir, 'topics'), { recursive: true });
    const lock = join(dir, 'LOCK');
    if (existsSync(lock)) {
      const pid = Number(readFileSync(lock, 'utf8'));
      if (pid !== process.pid && processAlive(pid)) {
        throw new Error(`the embedded bus in ${dir} is in use by process ${pid}`);
      }
    }
    writeFileSync(lock, String(process.pid));
    this.#offsets = new OffsetStore(join(dir, 'offsets'));
  }

  release(): void {
    const entry = open.get(this.dir);
    if (!entry || --entry.users > 0) return;
    open.delete(this.dir);
    for (const topic of this.#topics.values()) for (const log of topic.logs) log.close();
    this.#offsets.close();
    rmSync(join(this.dir, 'LOCK'), { force: true });
  }

  ensureTopic(declaration: TopicDeclaration): void {
    const existing = this.#topics.get(declaration.name);
    if (existing && existing.logs.length >= declaration.partitions) return;
    const dir = join(this.dir, 'topics', declaration.name);
    let partitions = declaration.partitions;
    if (!declaration.ephemeral) {
      mkdirSync(dir, { recursive: true });
      // Partitions can grow, never shrink (as on Kafka): keep the larger count on disk.
      const meta = join(dir, 'partitions');
      if (existsSync(meta)) partitions = Math.max(partitions, Number(readFileSync(meta, 'utf8')));
      writeFileSync(meta, String(partitions));
    }
    const logs = existing?.logs ?? [];
    for (let p = logs.length; p < partitions; p += 1) {
      const file = declaration.ephemeral ? null : join(dir, `${p}.ndjson`);
      logs.push(
        new PartitionLog(declaration.name, p, file, {
          fsync: this.#fsync,
          retentionMs: declaration.retentionMs,
        }),
      );
    }
    this.#topics.set(declaration.name, { declaration, logs, sent: existing?.sent ?? 0 });
    for (const group of this.#groups.values()) void group.rebalance();
  }

  append(topicName: string, record: OutgoingRecord): RawRecord {
    const topic = this.#topic(topicName);
    const partition = partitionFor(topicName, record.key, topic.logs.length, topic.sent++);
    return topic.logs[partition]!.append(record);
  }

  group(name: string, topicName: string): ConsumerGroup {
    const topic = this.#topic(topicName);
    const id = `${name}\u0000${topicName}`;
    let group = this.#groups.get(id);
    if (!group) {
      group = new ConsumerGroup(name, () => topic.logs, this.#offsets, !topic.declaration.ephemeral);
      this.#groups.set(id, group);
    }
    return group;
  }

  resetOffsets(topicName: string, groupName: string, from: ReplayFrom): void {
    const topic = this.#topic(topicName);
    const group = this.#groups.get(`${groupName}\u0000${topicName}`);
    if (group && group.size > 0) {
      throw new Error(`group ${groupName} has running members on ${topicName}; stop them before replaying`);
    }
    for (const log of topic.logs) {
      const next =
        'offset' in from
          ? Math.min(Math.max(from.offset, log.startOffset), log.endOffset)
          : log.offsetForTime(from.timestamp);
      this.#offsets.commit(groupName, topicName, log.partition, next, !topic.declaration.ephemeral);
    }
  }

  #topic(name: string): Topic {
    const topic = this.#topics.get(name);
    if (!topic) throw new Error(`topic ${name} does not exist on the embedded bus`);
    return topic;
  }
}
