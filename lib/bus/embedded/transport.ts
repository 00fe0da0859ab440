// The embedded transport: the Transport contract on the in-process broker of a data
// directory. Several transports (clients) of one process share that broker, as several
// clients share a Kafka cluster.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
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
import { EmbeddedBroker } from './broker.ts';

export interface EmbeddedOptions {
  dataDir: string;
  clientId?: string;
  fsync?: boolean;
}

export class EmbeddedTransport implements Transport {
  readonly clientId: string;
  readonly #broker: EmbeddedBroker;
  readonly #consumptions = new Set<Consumption>();
  #closed = false;

  constructor(options: EmbeddedOptions) {
    this.clientId = options.clientId ?? `embedded-${randomUUID().slice(0, 8)}`;
    if (!/^[A-Za-z0-9._-]+$/.test(this.clientId))
      throw new Error(`client id ${this.clientId} has unsafe characters`);
    this.#broker = EmbeddedBroker.acquire(join(options.dataDir, 'bus'), { fsync: options.fsync ?? false });
  }

  async ensureTopics(topics: TopicDeclaration[]): Promise<void> {
    for (const topic of topics) this.#broker.ensureTopic(topic);
  }

  async send(topic: string, records: OutgoingRecord[]): Promise<Delivery[]> {
    this.#open();
    return records.map((record) => {
      const { partition, offset } = this.#broker.append(topic, record);
      return { topic, partition, offset };
    });
  }

  async consume(
    topic: string,
    groupName: string,
    handler: RecordHandler,
    options: ConsumeOptions = { concurrency: 1 },
  ): Promise<Consumption> {
    this.#open();
    const group = this.#broker.group(groupName, topic);
    const member = await group.join(handler, options.concurrency);
    const consumption: Consumption = {
      assignment: () => [...member.runners.keys()].sort((a, b) => a - b),
      stop: async () => {
        this.#consumptions.delete(consumption);
        await group.leave(member);
      },
    };
    this.#consumptions.add(consumption);
    return consumption;
  }

  async resetOffsets(topic: string, group: string, from: ReplayFrom): Promise<void> {
    this.#broker.resetOffsets(topic, group, from);
  }

  async ready(): Promise<boolean> {
    return !this.#closed;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await Promise.all([...this.#consumptions].map((c) => c.stop()));
    this.#closed = true;
    this.#broker.release();
  }

  #open(): void {
    if (this.#closed) throw new Error(`transport ${this.clientId} is closed`);
  }
}
