// What a running labld process hands its gateways and consumers.
import type { Bus } from '../lib/bus/contract.ts';
import type { TopicCatalog } from '../lib/bus/topics.ts';
import type { BlobStore } from '../lib/blobs/blob-store.ts';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import type { Datastore } from '../lib/datastore/contract.ts';
import type { TripleStore } from '../lib/triplestore/contract.ts';
import type { SharedStores } from '../lib/shared/contract.ts';

export interface Runtime {
  bus: Bus;
  catalog: TopicCatalog;
  /** Files and derived resources, shared by every process of a deployment (a shared volume on Kafka). */
  blobs: BlobStore;
  /** The catalogue store, opened on first use and closed at shutdown (absent in some tests). */
  catalogueStore?: () => Promise<CatalogueStore>;
  /** The datastore, likewise. */
  datastore?: () => Promise<Datastore>;
  /**
   * The triple store, likewise; opened in the main thread of the process that runs the triple
   * store's consumers (the embedded one has one owner, and runs oxigraph in its own thread).
   */
  tripleStore?: () => Promise<TripleStore>;
  /** Rate limits and fetched documents: on Redis (LABLD_REDIS_URL) or in memory. */
  shared?: SharedStores;
}
