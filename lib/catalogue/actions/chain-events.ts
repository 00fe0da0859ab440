// What a resource change tells the automation chain. The event is written to the store's
// outbox in the same transaction as the change (a relay publishes it afterwards,
// consumers/outbox.ts), so a change that is kept is always announced and one that is rolled
// back never is. A new run also resets the source's step status to "annotate queued" (and
// forgets the dead letters of its older runs).
import { randomUUID } from 'node:crypto';
import { queueStep, startsChain } from '../../chain/index.ts';
import type { ResourceEvent } from '../../contracts/chain.ts';
import type { Resource } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';

/** The file name the trigger looks at: the uploaded file's, or a link's last segment. */
export function fileName(resource: Resource): string {
  if (resource.url_type === 'upload') return resource.url;
  try {
    return decodeURIComponent(new URL(resource.url).pathname.split('/').pop() ?? '');
  } catch {
    return resource.url;
  }
}

/** resource.uploaded's (or resource.deleted's) event of a run of `resource`. */
export const resourceEvent = (resource: Resource, run: string): ResourceEvent => ({
  dataset_id: resource.package_id,
  resource_id: resource.id,
  run,
  name: fileName(resource),
});

/** Announces a new file or link of `resource` when it starts the chain (names.ts); the new run, if it does. */
export async function announceUpload(tx: CatalogueStore, resource: Resource): Promise<string | undefined> {
  const file = { name: fileName(resource), format: resource.format, derived: resource.derivation !== null };
  if (!startsChain(file)) return undefined;
  const run = randomUUID();
  await tx.deleteStepStatus(resource.id);
  // The dead letters of an older run would only be dropped as stale if replayed.
  await tx.deleteDeadLetters({ source_resource_id: resource.id });
  await tx.putStepStatus({
    source_resource_id: resource.id,
    package_id: resource.package_id,
    status: queueStep(undefined, { step: 'annotate', run, at: new Date().toISOString() }),
  });
  await tx.addEvent({
    event: 'resource.uploaded',
    key: resource.package_id,
    payload: resourceEvent(resource, run),
  });
  return run;
}

/** Announces that `resource` is gone (its derived resources went with it). */
export async function announceDelete(tx: CatalogueStore, resource: Resource): Promise<void> {
  await tx.deleteStepStatus(resource.id);
  await tx.deleteDeadLetters({ source_resource_id: resource.id });
  await tx.addEvent({
    event: 'resource.deleted',
    key: resource.package_id,
    payload: resourceEvent(resource, randomUUID()),
  });
}
