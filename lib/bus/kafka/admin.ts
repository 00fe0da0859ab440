// Cluster administration for the transport: topics from topics.yaml created or verified (and
// grown, never shrunk, as on the embedded bus), per-instance topics deleted again, and
// consumer-group offsets moved for a replay.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, ITopicConfig, Kafka } from 'kafkajs';
import type { ReplayFrom, TopicDeclaration } from '../contract.ts';
import { connectOnce, type Namespace } from './client.ts';

const TOPIC_READY_TIMEOUT_MS = 30_000;

export class GroupRunningError extends Error {
  constructor(group: string, topic: string) {
    super(`group ${group} has running members on ${topic}; stop them before replaying`);
    this.name = 'GroupRunningError';
  }
}

export class ClusterAdmin {
  readonly #kafka: Kafka;
  readonly #admin: Admin;
  readonly #names: Namespace;
  readonly #replicationFactor: number | undefined;

  constructor(kafka: Kafka, names: Namespace, replicationFactor?: number) {
    this.#kafka = kafka;
    this.#admin = kafka.admin();
    this.#names = names;
    this.#replicationFactor = replicationFactor;
  }

  /** Connects once; a connect that failed (the broker away) is tried again by the next call. */
  readonly connect = connectOnce(() => this.#admin.connect());

  async disconnect(): Promise<void> {
    if (this.connect.begun()) await this.#admin.disconnect();
  }

  /** Create missing topics; add partitions where a topic has fewer than declared. */
  async ensureTopics(topics: TopicDeclaration[]): Promise<void> {
    if (topics.length === 0) return;
    await this.connect();
    const replicationFactor = this.#replicationFactor ?? (await this.#defaultReplication());
    const configs = topics.map((t): ITopicConfig => ({
      topic: this.#names.topic(t.name),
      numPartitions: t.partitions,
      replicationFactor,
      configEntries: [
        { name: 'retention.ms', value: Number.isFinite(t.retentionMs) ? String(t.retentionMs) : '-1' },
        { name: 'cleanup.policy', value: 'delete' },
      ],
    }));
    // Existing topics are verified, not created again (an operator may have tuned them).
    const existing = new Set(await this.#admin.listTopics());
    const missing = configs.filter((c) => !existing.has(c.topic));
    if (missing.length > 0) {
      // kafkajs's own wait for leaders gives up on UNKNOWN_TOPIC_OR_PARTITION, which a KRaft
      // broker answers for a moment after creating a topic; #described waits for that instead.
      await this.#admin.createTopics({ topics: missing, waitForLeaders: false });
    }
    const described = await this.#described(configs.map((c) => c.topic));
    const grow = configs
      .filter((c) => described.get(c.topic)! < c.numPartitions!)
      .map((c) => ({ topic: c.topic, count: c.numPartitions! }));
    if (grow.length > 0) await this.#admin.createPartitions({ topicPartitions: grow });
  }

  async deleteTopics(names: string[]): Promise<void> {
    if (names.length === 0) return;
    await this.connect();
    await this.#admin.deleteTopics({ topics: names.map((n) => this.#names.topic(n)) });
  }

  async deleteGroups(groups: string[]): Promise<void> {
    if (groups.length === 0) return;
    await this.connect();
    await this.#admin.deleteGroups(groups.map((g) => this.#names.group(g)));
  }

  /** How many members `group` has right now (0 for a group that does not exist). */
  async groupMembers(group: string): Promise<number> {
    await this.connect();
    const { groups } = await this.#admin.describeGroups([this.#names.group(group)]);
    return groups[0]?.members.length ?? 0;
  }

  /** Move the committed offsets of an idle group: an offset in every partition, or the first record at or after a time. */
  async resetOffsets(topic: string, group: string, from: ReplayFrom): Promise<void> {
    await this.connect();
    const clusterTopic = this.#names.topic(topic);
    const groupId = this.#names.group(group);
    if ((await this.groupMembers(group)) > 0) throw new GroupRunningError(group, topic);
    let partitions: { partition: number; offset: string }[];
    if ('offset' in from) {
      // Clamped to what the partition holds, as on the embedded bus.
      const offsets = await this.#admin.fetchTopicOffsets(clusterTopic);
      partitions = offsets.map((p) => ({
        partition: p.partition,
        offset: String(Math.min(Math.max(from.offset, Number(p.low)), Number(p.high))),
      }));
    } else {
      // kafkajs answers "no record that late" with the partition's end offset.
      partitions = await this.#admin.fetchTopicOffsetsByTimestamp(clusterTopic, from.timestamp);
    }
    await this.#commitAsMember(groupId, clusterTopic, partitions);
  }

  async reachable(timeoutMs: number): Promise<boolean> {
    try {
      await this.connect();
      const probe = this.#admin.describeCluster().then(() => true);
      const late = new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
      return await Promise.race([probe, late]);
    } catch {
      return false;
    }
  }

  /**
   * Commit offsets for an idle group by joining it briefly. (kafkajs's admin.setOffsets does
   * the same but waits a full 5 s fetch cycle before it leaves; this member commits and leaves.)
   */
  async #commitAsMember(
    groupId: string,
    topic: string,
    partitions: { partition: number; offset: string }[],
  ): Promise<void> {
    const member = this.#kafka.consumer({ groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
    try {
      await member.connect();
      await member.subscribe({ topics: [topic] });
      const joined = new Promise<void>((resolve) => member.on(member.events.GROUP_JOIN, () => resolve()));
      const crashed = new Promise<never>((_, reject) =>
        member.on(member.events.CRASH, ({ payload }) => reject(payload.error)),
      );
      // Nothing is handled or committed from the records it may fetch before it is paused.
      await member.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => {} });
      await Promise.race([joined, crashed]);
      member.pause([{ topic }]);
      await member.commitOffsets(partitions.map((p) => ({ topic, ...p })));
    } finally {
      await member.disconnect().catch(() => {});
    }
  }

  /** Partition counts of `topics`, once every partition of each has a leader (30 s at most). */
  async #described(topics: string[]): Promise<Map<string, number>> {
    const deadline = Date.now() + TOPIC_READY_TIMEOUT_MS;
    for (;;) {
      try {
        const { topics: found } = await this.#admin.fetchTopicMetadata({ topics });
        if (found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) {
          return new Map(found.map((t) => [t.name, t.partitions.length]));
        }
      } catch (error) {
        const type = (error as { type?: string }).type;
        if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' && type !== 'LEADER_NOT_AVAILABLE') throw error;
        if (Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`topics ${topics.join(', ')} have no leaders after 30 s`);
      await sleep(100);
    }
  }

  async #defaultReplication(): Promise<number> {
    const { brokers } = await this.#admin.describeCluster();
    return Math.min(3, brokers.length);
  }
}
