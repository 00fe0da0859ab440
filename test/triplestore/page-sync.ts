// The triple store in step with the catalogue whatever door a change came in by (issue 27,
// "one road out"): a loaded dataset's resource deleted or replaced from its page, and the
// dataset deleted from its page, leave the dataset's SPARQL endpoint as the Action API's
// actions do. Run on each catalogue store (page-sync.e2e.test.ts, page-sync.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedPeople } from '../catalogue/support/people.ts';
import { csrfOf, getPage, jarsOf, postForm, type CookieJar } from '../catalogue/support/login.ts';
import { api, viewerOf, type Person } from '../catalogue/actions/support.ts';
import { processStores } from '../../app/stores.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { runActionAs } from '../../lib/catalogue/actions/index.ts';
import { loadAndWait, sparql, storedGraphs, uploadTurtle, SAMPLE_TTL } from './endpoint-support.ts';
import { eventually } from '../support/wait.ts';

const PASSWORD = 'pages change the triple store too';

export interface Started {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export function pageSyncSuite(store: string, start: () => Promise<Started>): void {
  describe(`the triple store follows changes made on the pages (${store})`, () => {
    let labld: Started;
    let owner: Person;
    let jar: CookieJar;
    before(async () => {
      labld = await start();
      owner = (await seedPeople(labld.dataDir, [], PASSWORD)).get('owner')!;
      jar = (await jarsOf(labld.url, ['owner'], PASSWORD)).get('owner')!;
    });
    after(() => labld?.stop());

    /** A form posted from the owner's session, with the CSRF field of a page they can open. */
    async function post(path: string, fields: Record<string, string> = {}): Promise<Response> {
      const csrf = csrfOf((await getPage(`${labld.url}/user/tokens`, jar)).html);
      return postForm(`${labld.url}${path}`, jar, { ...fields, _csrf: csrf });
    }

    /** The named graphs the dataset's endpoint sees, as the owner asks. */
    async function graphs(dataset: string): Promise<string[]> {
      const answer = await sparql(labld.url, dataset, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', {
        who: owner,
      });
      assert.equal(answer.status, 200, answer.text);
      return (
        JSON.parse(answer.text) as { results: { bindings: { g: { value: string } }[] } }
      ).results.bindings
        .map((b) => b.g.value)
        .sort();
    }

    /** A dataset with two joined graphs, loaded by the load button; their resources. */
    async function loaded(name: string) {
      const made = await api(labld.url, 'package_create', {
        body: { name },
        headers: { authorization: owner.token },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const first = await uploadTurtle(labld.url, owner, name, 'forces-joined.ttl', SAMPLE_TTL);
      const second = await uploadTurtle(labld.url, owner, name, 'widths-joined.ttl', SAMPLE_TTL);
      await loadAndWait(labld.url, owner, name);
      assert.deepEqual(await graphs(name), [first.url, second.url].sort());
      return { id: String(made.body.result.id), first, second };
    }

    test("deleting a resource on its page drops its graph from the dataset's endpoint", async () => {
      const { first, second } = await loaded('page-resource-delete');
      const deleted = await post(`/dataset/page-resource-delete/resource/${second.id}/delete`);
      assert.equal(deleted.status, 303);
      const left = await eventually(
        () => graphs('page-resource-delete'),
        (g) => g.length === 1,
        15_000,
      );
      assert.deepEqual(left, [first.url]);
    });

    test('replacing a resource on its page replaces its graph', async () => {
      const { first } = await loaded('page-resource-replace');
      const form = new FormData();
      form.set('_csrf', csrfOf((await getPage(`${labld.url}/user/tokens`, jar)).html));
      form.set(
        'file',
        new Blob(['<http://example.org/m7> <http://example.org/force> 7.5 .\n'], { type: 'text/turtle' }),
        'forces-joined.ttl',
      );
      const replaced = await fetch(
        `${labld.url}/dataset/page-resource-replace/resource/${first.id}/replace`,
        {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(), accept: 'text/html', origin: labld.url },
          body: form,
        },
      );
      assert.equal(replaced.status, 303, await replaced.text());
      const forces = async () => {
        const answer = await sparql(
          labld.url,
          'page-resource-replace',
          `SELECT ?force WHERE { GRAPH <${first.url}> { ?s <http://example.org/force> ?force } }`,
          { who: owner },
        );
        return (
          JSON.parse(answer.text) as { results: { bindings: { force: { value: string } }[] } }
        ).results.bindings
          .map((b) => b.force.value)
          .join(' ');
      };
      assert.equal(await eventually(forces, (f) => f === '7.5', 15_000), '7.5');
    });

    test('a change made with no gateway at all (as the command line or a script on the stores would) reaches the triple store too', async () => {
      const { id, first, second } = await loaded('no-gateway');
      // The labld's own stores, opened beside it as another process of the same deployment.
      const stores = processStores(labld.dataDir);
      try {
        const deps = {
          store: await stores.catalogue.get(),
          datastore: await stores.datastore.get(),
          blobs: blobStoreIn(labld.dataDir),
          siteUrl: new URL(first.url).origin,
        };
        const as = await viewerOf(deps.store, owner);
        await runActionAs(deps, as, 'resource_delete', { id: second.id });
        const left = await eventually(
          () => graphs('no-gateway'),
          (g) => g.length === 1,
          15_000,
        );
        assert.deepEqual(left, [first.url]);
        await runActionAs(deps, as, 'package_delete', { id });
      } finally {
        await stores.catalogue.close();
        await stores.datastore.close();
      }
      const gone = await eventually(
        () => storedGraphs(labld.dataDir, id),
        (g) => g.length === 0,
        15_000,
      );
      assert.deepEqual(gone, []);
    });

    test('deleting the dataset on its page drops all of its graphs', async () => {
      const { id } = await loaded('page-dataset-delete');
      assert.equal((await storedGraphs(labld.dataDir, id)).length, 2);
      const deleted = await post('/dataset/page-dataset-delete/delete');
      assert.equal(deleted.status, 303);
      const left = await eventually(
        () => storedGraphs(labld.dataDir, id),
        (g) => g.length === 0,
        15_000,
      );
      assert.deepEqual(left, []);
    });
  });
}
