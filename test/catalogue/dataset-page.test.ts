// The dataset page in one composite read (issue 25, finding 10): a page view through the pages'
// real source (ActionSource) sends one request to the catalogue and reads the catalogue store
// once for the page's content (besides resolving the viewer), and shows what the separate
// actions showed: resources with their makers, step status, the load, dead letters for admins.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../lib/catalogue/actions/index.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { Runtime } from '../../app/runtime.ts';
import { ActionSource } from '../../gateways/catalogue/action-source.ts';
import { finishStep, queueStep, startStep } from '../../lib/chain/status.ts';
import type { WireCredential } from '../../lib/contracts/catalogue.ts';
import {
  annotateDeadLetter,
  embeddedCatalogue,
  person,
  type Catalogue,
  type Person,
} from './actions/support.ts';

/** Store methods resolveViewer calls for a token: not the page's content. */
const VIEWER = new Set([
  'findTokenByHash',
  'getUser',
  'touchToken',
  'findLiveSession',
  'rolesOfUser',
  'organizationRolesOfUser',
]);

describe('the dataset page', () => {
  let catalogue: Catalogue;
  let alice: Person;
  let bob: Person;
  const calls: string[] = [];
  let requests = 0;
  let source: ActionSource;

  before(async () => {
    catalogue = await embeddedCatalogue();
    const { store } = catalogue.deps;
    alice = await person(store, 'alice');
    bob = await person(store, 'bob');
    const d = await store.createDataset({ name: 'tensile', creator_user_id: alice.user.id });
    await store.setRole(alice.user.id, d.id, 'admin');
    await store.setRole(bob.user.id, d.id, 'editor');
    const csv = await store.createResource(d.id, {
      name: 'rows.csv',
      url: 'rows.csv',
      url_type: 'upload',
      creator_user_id: alice.user.id,
    });
    await store.createResource(d.id, {
      name: 'more.csv',
      url: 'more.csv',
      url_type: 'upload',
      creator_user_id: bob.user.id,
    });
    const queued = queueStep(undefined, { step: 'annotate', run: 'r1', at: '2026-01-01T00:00:00.000Z' });
    const done = finishStep(
      startStep(queued, 'r1', '2026-01-01T00:00:01.000Z'),
      'r1',
      '2026-01-01T00:00:02.000Z',
      {
        durationMs: 1000,
      },
    );
    await store.putStepStatus({ source_resource_id: csv.id, package_id: d.id, status: done });
    // The imported table the plot section shows.
    await catalogue.deps.datastore.create(
      csv.id,
      [
        { id: 'time', type: 'float' },
        { id: 'force', type: 'float' },
      ],
      [{ time: 0.1, force: 2 }],
    );
    await store.addDeadLetter(annotateDeadLetter('dlq/0/7', csv, 'r1', 'rows.csv'));
    // Every store call, by method name, and every request a page sends to the catalogue.
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as CatalogueStore;
    const deps = { ...catalogue.deps, store: counted };
    const runtime = {
      blobs: catalogue.deps.blobs,
      catalog: { topicReadBy: () => ({ name: 'catalogue-requests' }) },
      bus: {
        request: async (
          _topic: string,
          value: {
            operation: string;
            input: { credential: WireCredential; params: Record<string, unknown> };
          },
        ) => {
          requests += 1;
          return runAction(deps, value.input.credential, value.operation, value.input.params);
        },
      },
    } as unknown as Runtime;
    source = new ActionSource(runtime);
  });
  after(() => catalogue.dispose());

  const view = async (who: Person | undefined) => {
    calls.length = 0;
    requests = 0;
    const credential = who ? { kind: 'token' as const, hash: who.tokenHash } : { kind: 'anonymous' as const };
    return source.dataset({ credential, ...(who ? { userName: who.user.name } : {}) }, 'tensile');
  };

  it('is one request and one read of the store for an admin, makers and dead letters included', async () => {
    const page = await view(alice);
    assert.equal(requests, 1, 'one request to the catalogue');
    assert.deepEqual(
      calls.filter((c) => !VIEWER.has(c)),
      ['datasetPage'],
    );
    assert.deepEqual(
      page.resources.map((r) => [r.name, r.madeBy]),
      [
        ['rows.csv', { kind: 'user', name: 'alice' }],
        ['more.csv', { kind: 'user', name: 'bob' }],
      ],
    );
    assert.deepEqual(
      page.steps.filter((s) => s.status === 'done').map((s) => s.step),
      ['rows.csv: annotate'],
    );
    assert.deepEqual(
      page.deadLetters?.map((d) => d.id),
      ['dlq/0/7'],
    );
    assert.equal(page.canUpload, true);
    assert.equal(page.triplestore?.state, 'not-loaded');
    assert.deepEqual(
      [page.plot?.resources.map((t) => t.name), page.plot?.x, page.plot?.y],
      [['rows.csv'], 'time', 'force'],
    );
  });

  it('shows a visitor no makers and no dead letters, reading the store once', async () => {
    const page = await view(undefined);
    assert.deepEqual([requests, calls], [1, ['datasetPage']]);
    assert.deepEqual(
      page.resources.map((r) => r.madeBy),
      [
        { kind: 'user', name: 'a user' },
        { kind: 'user', name: 'a user' },
      ],
    );
    assert.equal(page.deadLetters, undefined);
    assert.equal(page.canUpload, false);
  });

  it('takes the table to plot from the page (`plot`), in the same request; tells one not of the dataset in place', async () => {
    const table = (await view(undefined)).plot!.resource;
    calls.length = 0;
    requests = 0;
    const page = await source.dataset({ credential: { kind: 'anonymous' } }, 'tensile', { resource: table });
    assert.deepEqual([requests, page.plot?.resource], [1, table]);
    const refused = await source.dataset({ credential: { kind: 'anonymous' } }, 'tensile', {
      resource: 'not-a-table',
    });
    assert.equal(refused.plot?.resource, table);
    assert.match(refused.plot?.refused ?? '', /^plot: "not-a-table" is not a table of this dataset/);
  });

  it("switching the table keeps no column of the other table: that table's first columns", async () => {
    // The form sends the old table's x and y with the new table (issue 28: a full-page 422).
    const page = await source.dataset({ credential: { kind: 'anonymous' } }, 'tensile', {
      resource: (await view(undefined)).plot!.resource,
      x: 'Zeit',
      y: 'Kraft',
    });
    assert.deepEqual([page.plot?.x, page.plot?.y, page.plot?.refused], ['time', 'force', undefined]);
  });

  it('shows an editor no dead letters', async () => {
    const page = await view(bob);
    assert.equal(page.deadLetters, undefined);
    assert.equal(page.canUpload, true);
  });
});
