// The catalogue's Action API as plain functions: `runAction(deps, credential, name, params)`
// resolves who asks and runs the action, whose answer is CKAN's `result`. The consumer of the
// catalogue request topic calls it; so can a test or the command line, with no bus and no HTTP.
import { notFound } from '../../process/errors.ts';
import { isActionName, type ActionName, type WireCredential } from '../../contracts/catalogue.ts';
import { resolveViewer, type Viewer } from '../auth/actor.ts';
import type { Action, ActionDeps, ActionExtras } from './context.ts';
import { datasetActions } from './datasets.ts';
import { datastoreActions } from './datastore.ts';
import { datastoreSqlActions } from './datastore-sql.ts';
import { groupActions } from './groups.ts';
import { organizationActions } from './organizations.ts';
import { plotActions } from './plot.ts';
import { resourceActions } from './resources.ts';
import { searchActions } from './search.ts';
import { triplestoreActions } from './triplestore.ts';
import { statusActions } from './status.ts';
import { deadLetterActions } from './chain-replay.ts';
import { userActions } from './users.ts';
import { datasetPageActions } from './dataset-page.ts';
import { resourcePageActions } from './resource-page.ts';
import { libraryActions } from './library.ts';

export type { ActionDeps, ActionExtras } from './context.ts';

/** Every action of lib/contracts/catalogue.ts, and nothing else (checked by the compiler). */
export const ACTIONS: Record<ActionName, Action> = {
  ...datasetActions,
  ...searchActions,
  ...resourceActions,
  ...groupActions,
  ...organizationActions,
  ...datastoreActions,
  ...datastoreSqlActions,
  ...plotActions,
  ...userActions,
  ...triplestoreActions,
  ...statusActions,
  ...deadLetterActions,
  ...datasetPageActions,
  ...resourcePageActions,
  ...libraryActions,
} satisfies Record<ActionName, Action>;

/** Runs `name` as `viewer`. */
export async function runActionAs(
  deps: ActionDeps,
  viewer: Viewer,
  name: string,
  params: Record<string, unknown>,
  extras: ActionExtras = {},
): Promise<unknown> {
  if (!isActionName(name)) throw notFound(`Action name not known: ${name}`, 'action');
  return ACTIONS[name](deps, viewer, params, extras);
}

/** Runs `name` for whoever `credential` stands for (an unknown token is `unauthorized`). */
export async function runAction(
  deps: ActionDeps,
  credential: WireCredential,
  name: string,
  params: Record<string, unknown>,
  extras: ActionExtras = {},
): Promise<unknown> {
  return runActionAs(deps, await resolveViewer(deps.store, credential), name, params, extras);
}
