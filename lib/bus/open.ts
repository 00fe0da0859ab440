// Opening a bus from configuration: the one place that picks a transport.
import { join, dirname, resolve } from 'node:path';
import { loadTopics, type TopicCatalog } from './topics.ts';
import { TransportBus } from './bus.ts';
import { EmbeddedTransport } from './embedded/transport.ts';
import type { KafkaOptions } from './kafka/client.ts';
import { setting } from '../process/config.ts';

/** Kafka settings of a bus (the client id is BusConfig's). */
export type KafkaConfig = Omit<KafkaOptions, 'clientId'> & {
  /** A Confluent-compatible schema registry: payloads in its wire format. Without it, plain JSON. */
  registryUrl?: string;
};

export interface BusConfig {
  transport: 'embedded' | 'kafka';
  dataDir: string;
  topicsFile: string;
  clientId?: string;
  fsync?: boolean;
  /** Required when transport is kafka. */
  kafka?: KafkaConfig;
}

export function busConfigFromEnv(env: NodeJS.ProcessEnv = process.env): BusConfig {
  const transport = setting('LABLD_TRANSPORT', env);
  if (transport !== 'embedded' && transport !== 'kafka') {
    throw new Error(`LABLD_TRANSPORT must be embedded or kafka, got ${JSON.stringify(transport)}`);
  }
  return {
    transport,
    dataDir: setting('LABLD_DATA', env),
    topicsFile: setting('LABLD_TOPICS', env),
    fsync: setting('LABLD_BUS_FSYNC', env) === 'true',
    kafka: {
      brokers: brokerList(setting('KAFKA_BROKERS', env)),
      registryUrl: setting('LABLD_SCHEMA_REGISTRY_URL', env) || undefined,
      topicPrefix: setting('LABLD_KAFKA_TOPIC_PREFIX', env) || undefined,
    },
  };
}

/** Bootstrap servers from their comma-separated list (KAFKA_BROKERS). */
export function brokerList(text: string): string[] {
  return text
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}

export function catalogOf(config: Pick<BusConfig, 'topicsFile'>): TopicCatalog {
  const file = resolve(config.topicsFile);
  return loadTopics(file, join(dirname(file), 'schemas'));
}

/** A started bus: topics of the catalogue created or verified. */
export async function openBus(config: BusConfig, catalog = catalogOf(config)): Promise<TransportBus> {
  if (config.transport === 'kafka') {
    if (!config.kafka)
      throw new Error('the kafka transport needs the kafka settings (brokers) of its BusConfig');
    // Loaded only here: an embedded process need not hold the Kafka client and registry code.
    const [{ KafkaTransport }, { RegistryCodec }] = await Promise.all([
      import('./kafka/transport.ts'),
      import('./kafka/registry-codec.ts'),
    ]);
    const { registryUrl, ...options } = config.kafka;
    const transport = new KafkaTransport({ ...options, clientId: config.clientId });
    const codec = registryUrl
      ? new RegistryCodec({ url: registryUrl, catalog, subjectPrefix: options.topicPrefix })
      : undefined;
    return startOrClose(new TransportBus({ transport, catalog, codec }));
  }
  const transport = new EmbeddedTransport({
    dataDir: config.dataDir,
    clientId: config.clientId,
    fsync: config.fsync,
  });
  return new TransportBus({ transport, catalog }).start();
}

/** A bus whose start fails (no broker) is closed again, so that it leaves no connections behind. */
async function startOrClose(bus: TransportBus): Promise<TransportBus> {
  try {
    return await bus.start();
  } catch (error) {
    await bus.close().catch(() => {});
    throw error;
  }
}
