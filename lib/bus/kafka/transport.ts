// The Kafka transport: the Transport contract on a Kafka cluster through kafkajs. Retries,
// dead letters, schemas and request/reply live above it in TransportBus, exactly as for the
// embedded transport; this layer only moves bytes, owns group membership and offsets.
//
// Per-instance topics (this instance's reply topic) are created with their short retention
// and deleted again, with the group that read them, when the transport closes.
import type {
  ConsumeOptions,
  Consumption,
  Delivery,
  OutgoingRecord,
  RecordHandler,
  ReplayFrom,
  TopicDeclaration,
  Transport,
} from '../contract.ts';
import {
  createKafka,
  Namespace,
  resolveOptions,
  type KafkaOptions,
  type ResolvedKafkaOptions,
} from './client.ts';
import { ClusterAdmin } from './admin.ts';
import { RecordProducer } from './producer.ts';
import { GroupMember } from './consumer.ts';
import { log as rootLog, type Logger } from '../../process/log.ts';

const CLEANUP_TIMEOUT_MS = 3_000;

export interface KafkaTransportOptions extends KafkaOptions {
  logger?: Logger;
}

export class KafkaTransport implements Transport {
  readonly clientId: string;
  readonly #options: ResolvedKafkaOptions;
  readonly #names: Namespace;
  readonly #log: Logger;
  readonly #kafka;
  readonly #admin: ClusterAdmin;
  readonly #producer: RecordProducer;
  readonly #members = new Set<GroupMember>();
  /** Per-instance topics declared through this transport… */
  readonly #ephemeral = new Set<string>();
  /** …and those it reads (so owns, and deletes on close), with their groups. */
  readonly #owned = new Set<string>();
  readonly #ownedGroups = new Set<string>();
  #closing: Promise<void> | undefined;

  constructor(options: KafkaTransportOptions) {
    this.#options = resolveOptions(options);
    this.clientId = this.#options.clientId;
    this.#names = new Namespace(this.#options.topicPrefix);
    this.#log = (options.logger ?? rootLog).child({ component: 'kafka', client: this.clientId });
    this.#kafka = createKafka(this.#options, this.#log);
    this.#admin = new ClusterAdmin(this.#kafka, this.#names, this.#options.replicationFactor);
    this.#producer = new RecordProducer(this.#kafka);
  }

  async ensureTopics(topics: TopicDeclaration[]): Promise<void> {
    this.#open();
    await this.#admin.ensureTopics(topics);
    for (const t of topics) if (t.ephemeral) this.#ephemeral.add(t.name);
  }

  async send(topic: string, records: OutgoingRecord[]): Promise<Delivery[]> {
    this.#open();
    const placements = await this.#producer.send(this.#names.topic(topic), records);
    return placements.map(({ partition, offset }) => ({ topic, partition, offset }));
  }

  async consume(
    topic: string,
    group: string,
    handler: RecordHandler,
    options?: ConsumeOptions,
  ): Promise<Consumption> {
    this.#open();
    if (this.#ephemeral.has(topic) && (await this.#admin.groupMembers(group)) > 0) {
      // Two live instances with one client id would split each other's replies.
      throw new Error(
        `client id ${this.clientId} is in use by another running instance (${topic} has a reader)`,
      );
    }
    const member = await GroupMember.join(
      topic,
      group,
      handler,
      { kafka: this.#kafka, names: this.#names, options: this.#options, logger: this.#log },
      options,
    );
    this.#members.add(member);
    if (this.#ephemeral.has(topic)) {
      this.#owned.add(topic);
      this.#ownedGroups.add(group);
    }
    return {
      assignment: () => member.assignment(),
      stop: async () => {
        this.#members.delete(member);
        await member.stop();
      },
    };
  }

  async resetOffsets(topic: string, group: string, from: ReplayFrom): Promise<void> {
    this.#open();
    await this.#admin.resetOffsets(topic, group, from);
  }

  async ready(): Promise<boolean> {
    return !this.#closing && (await this.#admin.reachable(2_000));
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#members].map((m) => m.stop()));
      this.#members.clear();
      await this.#producer.disconnect();
      // Best effort, and bounded so that a shutdown with the cluster gone stays quick: a
      // per-instance topic left behind (or by a killed process) expires by its retention; only
      // its empty shell stays until someone deletes it.
      const cleanup = (async () => {
        await this.#admin.deleteGroups([...this.#ownedGroups]);
        await this.#admin.deleteTopics([...this.#owned]);
      })();
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CLEANUP_TIMEOUT_MS} ms`)),
          CLEANUP_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([cleanup, gaveUp]);
      } catch (error) {
        this.#log.warn({ err: String(error) }, 'could not delete the per-instance topics');
      } finally {
        clearTimeout(timer);
        cleanup.catch(() => {});
        gaveUp.catch(() => {});
      }
      await this.#admin.disconnect();
    })();
    return this.#closing;
  }

  #open(): void {
    if (this.#closing) throw new Error(`transport ${this.clientId} is closed`);
  }
}
