// What a catalogue change tells the triple store, kept in the change's own transaction (the
// store's outbox; consumers/outbox.ts publishes it to the load-triplestore consumer's topic),
// whichever door the change came in by: the Action API, a page's form, a script on the stores,
// or the chain itself (auto-load after convert). Keyed by the dataset id: one dataset's loads
// run in order. A `sync` is applied only to a dataset that was loaded (the original left its
// store stale, research §2.7).
import { LOAD_EVENT, type LoadEvent } from '../../contracts/triplestore.ts';
import type { StepStatus } from '../../chain/status.ts';
import { queueLoad } from '../../chain/load-status.ts';
import type { CatalogueStore } from '../store/contract.ts';

async function announce(tx: CatalogueStore, payload: LoadEvent): Promise<void> {
  await tx.addEvent({ event: LOAD_EVENT, key: payload.dataset_id, payload });
}

/** The dataset's resources changed, or it was deleted: its graphs follow, if it was loaded. */
export function announceSync(tx: CatalogueStore, datasetId: string): Promise<void> {
  return announce(tx, { dataset_id: datasetId, reason: 'sync' });
}

/**
 * Load pressed (or convert done under auto-load): a new run queued, so that the page says so at
 * once, and its event, in one transaction. `rows` undefined: as the dataset is loaded now.
 */
export function announceLoad(store: CatalogueStore, datasetId: string, rows?: boolean): Promise<StepStatus> {
  return store.transaction(async (tx) => {
    const queued = await queueLoad(tx, datasetId);
    await announce(tx, { dataset_id: datasetId, reason: 'load', ...(rows === undefined ? {} : { rows }) });
    return queued;
  });
}
