// The producer of one transport: idempotent with acks=all, so a retried send never writes a
// record twice and an acknowledged record survives the loss of the leader.
//
// kafkajs lets an idempotent producer have one request in flight per broker. Sends that
// arrive while a request is in flight are therefore queued and go out together in the next
// request: no added latency when idle, few large requests under load.
import kafkajs from 'kafkajs';
import type { Kafka, Producer, Message as KafkaJsMessage, RecordMetadata, ICustomPartitioner } from 'kafkajs';
import type { OutgoingRecord } from '../contract.ts';
import { toKafkaMessage } from './records.ts';
import { connectOnce } from './client.ts';

export interface Placement {
  partition: number;
  offset: number;
}

interface Pending {
  topic: string;
  messages: KafkaJsMessage[];
  resolve(placements: Placement[]): void;
  reject(error: Error): void;
}

export class RecordProducer {
  readonly #producer: Producer;
  /** The partition kafkajs chose for each message object (needed to compute its offset). */
  readonly #placed = new WeakMap<KafkaJsMessage, number>();
  #queue: Pending[] = [];
  #flushing = false;

  constructor(kafka: Kafka) {
    // The default partitioner is murmur2 on the key, as the Java client and the embedded bus
    // (lib/bus/partitioner.ts) use, so a key maps to the same partition number everywhere.
    const createPartitioner: ICustomPartitioner = () => {
      const choose = kafkajs.Partitioners.DefaultPartitioner();
      return (args) => {
        const partition = choose(args);
        this.#placed.set(args.message, partition);
        return partition;
      };
    };
    this.#producer = kafka.producer({
      idempotent: true,
      allowAutoTopicCreation: false,
      createPartitioner,
    });
  }

  /** Connects once; a connect that failed (the broker away at the first send) is tried again by the next send. */
  readonly connect = connectOnce(() => this.#producer.connect());

  /** Append `records` to the cluster topic `topic`; resolves when every one is acknowledged by all in-sync replicas. */
  async send(topic: string, records: OutgoingRecord[]): Promise<Placement[]> {
    await this.connect();
    return new Promise((resolve, reject) => {
      this.#queue.push({ topic, messages: records.map(toKafkaMessage), resolve, reject });
      void this.#flush();
    });
  }

  async disconnect(): Promise<void> {
    if (!this.connect.begun()) return;
    while (this.#flushing) await new Promise((resolve) => setImmediate(resolve));
    await this.#producer.disconnect();
  }

  async #flush(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        try {
          await this.#sendTogether(batch);
        } catch {
          // One bad send (an unknown topic, an oversized record) must not fail the others
          // that happened to share its request: send each alone and fail only the culprit.
          if (batch.length === 1) continue;
          for (const pending of batch) await this.#sendTogether([pending]).catch(() => {});
        }
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** One request for every pending send; settles each of them. Rejects (after settling) if it failed. */
  async #sendTogether(batch: Pending[]): Promise<void> {
    const byTopic = new Map<string, KafkaJsMessage[]>();
    for (const { topic, messages } of batch) byTopic.set(topic, [...(byTopic.get(topic) ?? []), ...messages]);
    let metadata: RecordMetadata[];
    try {
      metadata = await this.#producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error as Error);
      throw error;
    }
    // kafkajs keeps the order of the messages of one partition within the request, so the
    // n-th message of a partition has the partition's base offset + n.
    const base = new Map(metadata.map((m) => [`${m.topicName}\u0000${m.partition}`, Number(m.baseOffset)]));
    const next = new Map<string, number>();
    for (const { topic, messages, resolve } of batch) {
      resolve(
        messages.map((message) => {
          const partition = this.#placed.get(message)!;
          const id = `${topic}\u0000${partition}`;
          const index = next.get(id) ?? 0;
          next.set(id, index + 1);
          return { partition, offset: base.get(id)! + index };
        }),
      );
    }
  }
}
