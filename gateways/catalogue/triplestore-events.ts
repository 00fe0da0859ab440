// What the Action API starts in the triple store after an action succeeded: the load button
// (`triplestore_load`) publishes a `load`; a change to a dataset's resources or its deletion a
// `sync`, which the load-triplestore consumer applies only to a dataset that was loaded (the
// original left its store stale, research §2.7). Keyed by the dataset id: one dataset's loads
// run in order.
import type { Credential } from '../../lib/catalogue/auth/actor.ts';
import type { ActionName } from '../../lib/contracts/catalogue.ts';
import { LOAD_GROUP, type LoadEvent, type LoadReason } from '../../lib/contracts/triplestore.ts';
import { isDomainError } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';

type Call = (name: ActionName, params: Record<string, unknown>, credential: Credential) => Promise<unknown>;

const SYNCED_BY_RESULT = new Set<ActionName>(['resource_update', 'resource_patch']);

/**
 * Before the action runs: the dataset a deletion concerns, which cannot be asked afterwards
 * (CKAN's resource_delete answers nothing, and package_delete may be given the dataset's name).
 * Undefined when the action changes no loaded graph, or the caller may not see the dataset (the
 * action then fails the same way).
 */
export async function datasetBefore(
  call: Call,
  name: ActionName,
  params: Record<string, unknown>,
  credential: Credential,
): Promise<string | undefined> {
  const show =
    name === 'resource_delete' ? 'resource_show' : name === 'package_delete' ? 'package_show' : undefined;
  if (show === undefined || typeof params.id !== 'string') return undefined;
  try {
    const found = (await call(show, { id: params.id }, credential)) as { id: string; package_id?: string };
    return show === 'resource_show' ? found.package_id : found.id;
  } catch (error) {
    if (isDomainError(error)) return undefined;
    throw error;
  }
}

/** After the action succeeded: the event for the triple store, if any. */
export async function afterAction(
  runtime: Runtime,
  name: ActionName,
  result: unknown,
  before: string | undefined,
  correlationId: string,
): Promise<void> {
  let event: LoadEvent | undefined;
  const reason = (id: unknown, r: LoadReason) =>
    typeof id === 'string' ? { dataset_id: id, reason: r } : undefined;
  if (name === 'triplestore_load') {
    const load = result as { dataset_id?: unknown; rows?: unknown };
    event = reason(load.dataset_id, 'load');
    if (event) event.rows = load.rows === true;
  } else if (SYNCED_BY_RESULT.has(name))
    event = reason((result as { package_id?: unknown }).package_id, 'sync');
  else if (before !== undefined) event = reason(before, 'sync');
  if (!event) return;
  await runtime.bus.publish(runtime.catalog.topicReadBy(LOAD_GROUP).name, event, {
    key: event.dataset_id,
    headers: { 'x-correlation-id': correlationId },
  });
}
