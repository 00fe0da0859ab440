// Opening the triple store from configuration: the one place that picks an implementation.
// LABLD_TRIPLESTORE_URL names a SPARQL 1.1 server dataset (remote.ts); empty, the embedded
// store under LABLD_DATA/triplestore (embedded/store.ts).
import { intSetting, setting } from '../process/config.ts';
import { queryBoundsFromEnv } from './bounds.ts';
import type { QueryLimits, TripleStore } from './contract.ts';
import { openEmbeddedTripleStore } from './embedded/store.ts';
import { openRemoteTripleStore } from './remote.ts';

export interface TripleStoreConfig {
  /** SPARQL server dataset URL; empty: embedded. */
  url: string;
  dataDir: string;
  limits: QueryLimits;
  memoryTriples: number;
  /** Embedded: threads at most (LABLD_SPARQL_WORKERS). */
  workers?: number;
  /** Embedded: how long a thread may stay idle before it is let go (LABLD_WORKER_IDLE_MS). */
  idleMs?: number;
}

export function tripleStoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): TripleStoreConfig {
  return {
    url: setting('LABLD_TRIPLESTORE_URL', env),
    dataDir: setting('LABLD_DATA', env),
    limits: {
      timeoutMs: intSetting('LABLD_SPARQL_TIMEOUT_MS', env),
      maxResults: intSetting('LABLD_SPARQL_MAX_RESULTS', env),
      bounds: queryBoundsFromEnv(env),
      memoryMb: intSetting('LABLD_SPARQL_MEMORY_MB', env),
    },
    memoryTriples: intSetting('LABLD_TRIPLESTORE_MEMORY_TRIPLES', env),
    workers: intSetting('LABLD_SPARQL_WORKERS', env),
    idleMs: intSetting('LABLD_WORKER_IDLE_MS', env),
  };
}

export async function openTripleStore(
  config: TripleStoreConfig = tripleStoreConfigFromEnv(),
): Promise<TripleStore> {
  if (config.url === '') {
    return openEmbeddedTripleStore({
      dataDir: config.dataDir,
      limits: config.limits,
      memoryTriples: config.memoryTriples,
      workers: config.workers,
      idleMs: config.idleMs,
    });
  }
  const store = openRemoteTripleStore({ url: config.url, limits: config.limits });
  await store.ready();
  return store;
}
