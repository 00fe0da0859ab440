// labld for end-to-end tests: every gateway and consumer in this process, on the transport
// LABLD_TEST_TRANSPORT names — `embedded` (default, `npm test`) or `kafka` (`.ci/run` runs the
// `*.e2e.test.ts` files a second time against the real broker KAFKA_BROKERS names).
import { randomUUID } from 'node:crypto';
import { startAll, type ProcessOptions, type Running } from '../../app/processes.ts';
import type { BusConfig } from '../../lib/bus/open.ts';
import { BROKERS, deleteNamespace } from '../kafka/broker.ts';
import { removeTempDir, tempDir } from './temp.ts';

export type { Running };

export const testTransport = (): 'embedded' | 'kafka' =>
  process.env['LABLD_TEST_TRANSPORT'] === 'kafka' ? 'kafka' : 'embedded';

/** A fresh labld on port 0 with its own data directory (and, on Kafka, its own topic prefix). */
export async function startLabld(
  options: Pick<ProcessOptions, 'loginThrottle'> = {},
): Promise<Running & { dataDir: string }> {
  const dataDir = tempDir('labld-e2e-');
  if (testTransport() === 'embedded') {
    const running = await startAll({
      ...options,
      port: 0,
      bus: { transport: 'embedded', dataDir, topicsFile: 'topics.yaml' },
    });
    return { ...running, dataDir, stop: () => running.stop().then(() => removeTempDir(dataDir)) };
  }
  const topicPrefix = `e2e-${randomUUID().slice(0, 8)}.`;
  const bus: BusConfig = {
    transport: 'kafka',
    dataDir,
    topicsFile: 'topics.yaml',
    kafka: {
      brokers: BROKERS,
      topicPrefix,
      // .ci/run points this at the registry test double: payloads in the wire format.
      registryUrl: process.env['LABLD_SCHEMA_REGISTRY_URL'] || undefined,
    },
  };
  const running = await startAll({ ...options, port: 0, bus });
  // The broker is shared by every e2e file: each removes its topics when it stops.
  return {
    ...running,
    dataDir,
    stop: () =>
      running
        .stop()
        .then(() => deleteNamespace(topicPrefix))
        .then(() => removeTempDir(dataDir)),
  };
}
