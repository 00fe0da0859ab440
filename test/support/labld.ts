// labld for end-to-end tests: every gateway and consumer in this process, on the transport
// LABLD_TEST_TRANSPORT names — `embedded` (default, `npm test`) or `kafka` (`.ci/run` runs the
// `*.e2e.test.ts` files a second time against the real broker KAFKA_BROKERS names).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startAll, type Running } from '../../app/processes.ts';
import type { BusConfig } from '../../lib/bus/open.ts';

export type { Running };

export const testTransport = (): 'embedded' | 'kafka' =>
  process.env['LABLD_TEST_TRANSPORT'] === 'kafka' ? 'kafka' : 'embedded';

/** A fresh labld on port 0 with its own data directory (and, on Kafka, its own topic prefix). */
export function startLabld(): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-e2e-'));
  const bus: BusConfig =
    testTransport() === 'kafka'
      ? {
          transport: 'kafka',
          dataDir,
          topicsFile: 'topics.yaml',
          kafka: {
            brokers: (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','),
            topicPrefix: `e2e-${randomUUID().slice(0, 8)}.`,
            // .ci/run points this at the registry test double: payloads in the wire format.
            registryUrl: process.env['LABLD_SCHEMA_REGISTRY_URL'] || undefined,
          },
        }
      : { transport: 'embedded', dataDir, topicsFile: 'topics.yaml' };
  return startAll({ port: 0, bus });
}
