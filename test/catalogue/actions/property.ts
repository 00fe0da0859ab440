// Property: whatever JSON a client sends as an action's parameters, the action either succeeds
// or refuses with a DomainError whose CKAN answer is a 4xx — never another error (a 500) — and
// a refusal changes nothing in the store or the datastore.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from '../../support/fc.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { ACTION_NAMES, type WireCredential } from '../../../lib/contracts/catalogue.ts';
import type { DomainError } from '../../../lib/process/errors.ts';
import { isDomainError } from '../../../lib/process/errors.ts';
import type { ActionDeps } from '../../../lib/catalogue/actions/index.ts';
import { person, type Catalogue, type Person } from './support.ts';

let catalogue: Catalogue;
let alice: Person;
let root: Person;
const world = { dataset: '', resource: '' };

/** A public dataset of alice's with a resource and its table, made again if a run deleted it. */
async function ensureWorld(deps: ActionDeps): Promise<void> {
  if (await deps.store.getDataset('prop')) {
    const resources = await deps.store.listResources('prop');
    if (resources.some((r) => r.id === world.resource)) return;
  } else {
    world.dataset = (await deps.store.createDataset({ name: 'prop', creator_user_id: alice.user.id })).id;
  }
  const resource = await deps.store.createResource('prop', {
    name: 'p.csv',
    url: 'https://example.org/p.csv',
  });
  world.resource = resource.id;
  await deps.datastore.create(
    resource.id,
    [
      { id: 'name', type: 'text' },
      { id: 'force', type: 'numeric' },
    ],
    [
      ['a', 1],
      ['b', 2],
    ],
  );
}

/** Everything an action could change, in a comparable form (token use times left out). */
async function snapshot(deps: ActionDeps): Promise<string> {
  const { store, datastore } = deps;
  const datasets = (await store.searchDatasets({ includePrivateFor: 'all', limit: 1000 })).results;
  const state: unknown[] = [datasets, await store.listGroups()];
  for (const d of datasets) {
    const resources = await store.listResources(d.id);
    state.push(resources, await store.membersOfDataset(d.id));
    for (const r of resources) {
      state.push(await datastore.search({ resource_id: r.id, limit: 1000 }).catch((e: unknown) => String(e)));
    }
  }
  for (const u of await store.listUsers()) {
    state.push(
      u,
      (await store.listTokens(u.id)).map((t) => [t.id, t.name]),
    );
  }
  return JSON.stringify(state);
}

const KEYS = [
  'id',
  'name',
  'title',
  'notes',
  'private',
  'package_id',
  'resource_id',
  'url',
  'format',
  'filters',
  'q',
  'sort',
  'fields',
  'records',
  'limit',
  'offset',
  'rows',
  'start',
  'include_private',
  'groups',
  'resources',
  'capacity',
  'user_id',
  'user',
  'object',
  'object_type',
  'jti',
  'fq',
  'tags',
  'distinct',
] as const;

/** Values that hit the interesting paths (real names and ids) among arbitrary JSON. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'prop',
    'mappings',
    'alice',
    'package',
    'editor',
    'name',
    'force desc',
    'name; DROP TABLE x',
  ),
  fc.constant(null).map(() => world.resource),
  fc.constant(null).map(() => world.dataset),
  fc.constant({ name: ['a'] }),
  fc.constant([{ id: 'x', type: 'numeric' }]),
  fc.constant([{ name: 'a', force: 3 }]),
);

const call = fc.record({
  action: fc.constantFrom(...ACTION_NAMES),
  who: fc.constantFrom('anonymous', 'alice', 'root'),
  params: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }),
});

export function actionProperty(name: string, fresh: () => Promise<Catalogue>): void {
  describe(`Action API property: ${name}`, () => {
    before(async () => {
      catalogue = await fresh();
      alice = await person(catalogue.deps.store, 'alice');
      root = await person(catalogue.deps.store, 'root', true);
      await catalogue.deps.store.createGroup({ name: 'mappings' });
      await ensureWorld(catalogue.deps);
    });
    after(() => catalogue.dispose());

    test('random parameters: success or a CKAN 4xx, and a refusal changes nothing', async () => {
      await fc.assert(
        fc.asyncProperty(call, async ({ action, who, params }) => {
          await ensureWorld(catalogue.deps);
          const credential: WireCredential =
            who === 'anonymous'
              ? { kind: 'anonymous' }
              : { kind: 'token', hash: (who === 'alice' ? alice : root).tokenHash };
          const before = await snapshot(catalogue.deps);
          try {
            await runAction(catalogue.deps, credential, action, params);
          } catch (error) {
            assert.ok(isDomainError(error), `${action}: not a domain error: ${String(error)}`);
            const { status, body } = ckanError(error as DomainError);
            assert.ok(status >= 400 && status < 500, `${action}: status ${status}`);
            assert.equal(body.success, false);
            assert.equal(await snapshot(catalogue.deps), before, `${action} changed the store and refused`);
          }
        }),
        { numRuns: 400 },
      );
    });
  });
}
