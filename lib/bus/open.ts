// Opening a bus from configuration: the one place that picks a transport.
import { join, dirname, resolve } from 'node:path';
import { loadTopics, type TopicCatalog } from './topics.ts';
import { TransportBus } from './bus.ts';
import { EmbeddedTransport } from './embedded/transport.ts';
import { setting } from '../config.ts';

export interface BusConfig {
  transport: 'embedded' | 'kafka';
  dataDir: string;
  topicsFile: string;
  clientId?: string;
  fsync?: boolean;
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
  };
}

export function catalogOf(config: Pick<BusConfig, 'topicsFile'>): TopicCatalog {
  const file = resolve(config.topicsFile);
  return loadTopics(file, join(dirname(file), 'schemas'));
}

/** A started bus: topics of the catalogue created or verified. */
export async function openBus(config: BusConfig, catalog = catalogOf(config)): Promise<TransportBus> {
  if (config.transport === 'kafka') {
    throw new Error('the kafka transport is not available in this build yet; use LABLD_TRANSPORT=embedded');
  }
  const transport = new EmbeddedTransport({
    dataDir: config.dataDir,
    clientId: config.clientId,
    fsync: config.fsync,
  });
  return new TransportBus({ transport, catalog }).start();
}
