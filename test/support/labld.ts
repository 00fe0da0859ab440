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

/** Where a labld stopped by `halt` left its data, to start it again there (`again`). */
export interface Halted {
  dataDir: string;
  port: number;
  /** On Kafka: its topics' prefix. */
  topicPrefix?: string;
}

/**
 * A fresh labld on port 0 with its own data directory (and, on Kafka, its own topic prefix),
 * the starter mapping library off unless `starterMappings`;
 * or, with `again`, the one `halt` stopped, on its data, topics and port. `halt` stops it and
 * keeps them (e.g. for `labld replay` while it is down); `stop` removes them.
 */
export async function startLabld(
  options: Pick<ProcessOptions, 'loginThrottle' | 'starterMappings'> & { again?: Halted } = {},
): Promise<Running & { dataDir: string; halt(): Promise<Halted> }> {
  const { again, ...given } = options;
  // The starter mapping library is off unless a test asks for it: the suites written before it
  // count datasets and judge selection on a library they fill themselves.
  const processOptions = { ...given, starterMappings: given.starterMappings ?? false };
  const dataDir = again?.dataDir ?? tempDir('labld-e2e-');
  const port = again?.port ?? 0;
  const halt = (running: Running, topicPrefix?: string) => async (): Promise<Halted> => {
    await running.stop();
    return { dataDir, port: Number(new URL(running.url).port), topicPrefix };
  };
  if (testTransport() === 'embedded') {
    const running = await startAll({
      ...processOptions,
      port,
      bus: { transport: 'embedded', dataDir, topicsFile: 'topics.yaml' },
    });
    return {
      ...running,
      dataDir,
      halt: halt(running),
      stop: () => running.stop().then(() => removeTempDir(dataDir)),
    };
  }
  const topicPrefix = again?.topicPrefix ?? `e2e-${randomUUID().slice(0, 8)}.`;
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
  const running = await startAll({ ...processOptions, port, bus });
  // The broker is shared by every e2e file: each removes its topics when it stops.
  return {
    ...running,
    dataDir,
    halt: halt(running, topicPrefix),
    stop: () =>
      running
        .stop()
        .then(() => deleteNamespace(topicPrefix))
        .then(() => removeTempDir(dataDir)),
  };
}
