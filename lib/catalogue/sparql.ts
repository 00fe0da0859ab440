// The dataset's SPARQL endpoint behind the catalogue's one authorization: a query needs
// `sparql.query` (public: anyone; private: members), an update `sparql.update` (editors). A
// dataset the caller may not see reads as missing, in the caller's own words. Then the triple
// store runs it over that dataset's graphs only (lib/triplestore/guard.ts).
import type { TripleStore, QueryResult } from '../triplestore/contract.ts';
import type { SparqlInput, SparqlOperation } from '../contracts/triplestore.ts';
import { resolveViewer } from './auth/actor.ts';
import { datasetFor } from './actions/context.ts';
import type { CatalogueStore } from './store/contract.ts';

export interface SparqlDeps {
  store: CatalogueStore;
  tripleStore: TripleStore;
}

export async function runSparql(
  deps: SparqlDeps,
  operation: SparqlOperation,
  input: SparqlInput,
  signal?: AbortSignal,
): Promise<QueryResult | { type: 'update' }> {
  const viewer = await resolveViewer(deps.store, input.credential);
  const action = operation === 'query' ? 'sparql.query' : 'sparql.update';
  const dataset = await datasetFor(deps.store, viewer, action, input.id);
  if (operation === 'query') {
    return deps.tripleStore.query(dataset.id, input.text, {
      signal,
      ...(input.formats ? { formats: input.formats } : {}),
    });
  }
  await deps.tripleStore.update(dataset.id, input.text, { signal });
  return { type: 'update' };
}
