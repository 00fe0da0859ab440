// The triple store's consumers: `load-triplestore` (the load button's step: lib/chain/load.ts)
// and `triplestore-requests` (the SPARQL endpoint's queries and updates: lib/catalogue/sparql.ts).
// They run in the main thread of their process, not in the worker pool, because they share the
// process's one triple store: the embedded one has a single owner (its data directory) and
// already runs oxigraph in a thread of its own, so nothing here blocks the event loop.
import type { Message } from '../lib/bus/contract.ts';
import type { Consumer } from './registry.ts';
import { checkIn } from '../lib/blobs/claim-check.ts';
import { runSparql } from '../lib/catalogue/sparql.ts';
import {
  LOAD_GROUP,
  SPARQL_GROUP,
  type LoadEvent,
  type SparqlInput,
  type SparqlOperation,
} from '../lib/contracts/triplestore.ts';
import { log } from '../lib/process/log.ts';
import type { Runtime } from '../app/runtime.ts';
import { baseUrl } from '../lib/services.ts';
import { loadDataset } from '../lib/chain/load.ts';
import { checkInResult } from '../lib/triplestore/result-claim.ts';
import { withLoadStatus } from '../lib/chain/load-status.ts';

/** The catalogue store and the triple store of the process, opened on first use. */
async function storesOf(runtime: Runtime) {
  const { catalogueStore, tripleStore } = runtime;
  if (!catalogueStore || !tripleStore) {
    throw new Error("the triple store's consumers need the catalogue store and the triple store");
  }
  return { store: await catalogueStore(), tripleStore: await tripleStore() };
}

export const loadConsumer: Consumer = {
  group: LOAD_GROUP,
  part: 'triplestore',
  runsIn: 'main',
  replies: false,
  async handle({ runtime }, message: Message<LoadEvent>) {
    const { dataset_id: id, reason, rows } = message.value;
    const deps = { ...(await storesOf(runtime)), blobs: runtime.blobs, siteUrl: baseUrl() };
    const outcome = await withLoadStatus(deps.store, id, reason, () => loadDataset(deps, id, reason, rows));
    log.info(
      {
        dataset: id,
        reason,
        rows: outcome.rows,
        graphs: outcome.loaded.length,
        triples: outcome.loaded.reduce((n, g) => n + g.triples, 0),
        failed: outcome.failed,
        dropped: outcome.dropped.length,
        correlationId: message.headers['x-correlation-id'],
      },
      'triple store in step with the catalogue',
    );
  },
};

interface SparqlMessage {
  operation: SparqlOperation;
  input: SparqlInput;
}

export const sparqlConsumer: Consumer = {
  group: SPARQL_GROUP,
  part: 'triplestore',
  runsIn: 'main',
  replies: true,
  async handle({ runtime }, message: Message<SparqlMessage>, signal) {
    const stores = await storesOf(runtime);
    const result = await runSparql(stores, message.value.operation, message.value.input, signal);
    // A large result travels as a claim on the blob store, as every reply does; a query's text
    // is stored as the bytes the store wrote, for the gateway to send as they are.
    return result.type === 'update' ? checkIn(runtime.blobs, result) : checkInResult(runtime.blobs, result);
  },
};

export const tripleStoreConsumers: Consumer[] = [loadConsumer, sparqlConsumer];
