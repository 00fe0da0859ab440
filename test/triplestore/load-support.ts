// What the load tests share: a real embedded catalogue store beside an embedded triple store,
// the load's dependencies on them, and a Turtle resource stored as an upload.
import type { Dataset } from '../../lib/catalogue/model.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { TripleStore } from '../../lib/triplestore/contract.ts';
import type { LoadDeps } from '../../lib/chain/load.ts';
import { openTripleStore } from '../../lib/triplestore/open.ts';
import { embeddedCatalogue, SITE, type Catalogue } from '../catalogue/actions/support.ts';

/** The load's dependencies with the whole catalogue store, which the tests also fill. */
export type StoreLoadDeps = LoadDeps & { store: CatalogueStore };

export interface LoadFixture {
  catalogue: Catalogue;
  tripleStore: TripleStore;
  deps: StoreLoadDeps;
  /** A Turtle document stored as an uploaded resource of `dataset`. */
  withTurtle(dataset: Dataset, name: string, text: string): ReturnType<CatalogueStore['createResource']>;
  dispose(): Promise<void>;
}

export async function loadFixture(): Promise<LoadFixture> {
  const catalogue = await embeddedCatalogue();
  const tripleStore = await openTripleStore({
    url: '',
    dataDir: catalogue.dataDir,
    limits: { timeoutMs: 10_000, maxResults: 1000 },
    memoryTriples: 100_000,
  });
  const deps: StoreLoadDeps = {
    store: catalogue.deps.store,
    tripleStore,
    blobs: catalogue.deps.blobs,
    siteUrl: SITE,
  };
  return {
    catalogue,
    tripleStore,
    deps,
    withTurtle: async (dataset, name, text) =>
      deps.store.createResource(dataset.id, {
        name,
        url: name,
        url_type: 'upload',
        format: 'TTL',
        blob_key: await deps.blobs.putBytes(text),
      }),
    dispose: async () => {
      await tripleStore.close();
      await catalogue.dispose();
    },
  };
}
