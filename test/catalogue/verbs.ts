// The catalogue's ordinary verbs on its pages, on a whole labld over HTTP (issue 28, item 6): the
// plot's table switch told in place, who sees and may send the forms that edit, replace and
// delete — a refused post answers what the Action API answers the same person — and the table
// preview's search, ranges and units. Run on each store (verbs.e2e.test.ts, verbs.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedPeople } from './support/people.ts';
import { api, importedTable, type Person } from './actions/support.ts';
import { csrfOf, getPage, jarsOf, postForm, type CookieJar } from './support/login.ts';

const PASSWORD = 'the verbs have long passwords';
const WHO = ['anonymous', 'reader', 'editor', 'admin', 'other'] as const;
type Who = (typeof WHO)[number];

/** A whole labld, started by the suite's caller on its store. */
export interface Started {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

let labld: Started;
let owner: Person;
let people = new Map<string, Person>();
let jars = new Map<Who, CookieJar>();
/** The two tables of dataset `verbs`: resource ids. */
const tables: Record<'forces' | 'widths', string> = { forces: '', widths: '' };

async function call(action: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await api(labld.url, action, { body, headers: { authorization: owner.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as { result: Record<string, unknown> }).result;
}

export function verbsSuite(store: string, start: () => Promise<Started>): void {
  describe(`the catalogue's verbs on its pages (${store})`, () => {
    before(async () => {
      labld = await start();
      people = await seedPeople(labld.dataDir, WHO, PASSWORD);
      owner = people.get('owner')!;
      await call('package_create', { name: 'verbs', title: 'Verbs' });
      for (const [who, capacity] of [
        ['reader', 'member'],
        ['editor', 'editor'],
        ['admin', 'admin'],
      ] as const) {
        await call('package_collaborator_create', { id: 'verbs', user_id: who, capacity });
      }
      for (const [name, fields, records] of [
        [
          'forces',
          [
            { id: 'Zeit', type: 'float' },
            { id: 'Kraft', type: 'float', info: { unit: 'http://qudt.org/vocab/unit/KiloN' } },
            { id: 'Probe', type: 'text' },
          ],
          [
            { Zeit: 0.5, Kraft: 10, Probe: 'P1 Stahl' },
            { Zeit: 1.5, Kraft: 250, Probe: 'P2 Stahl' },
            { Zeit: 2.5, Kraft: 410, Probe: 'P3 Kupfer' },
          ],
        ],
        [
          'widths',
          [
            { id: 'width', type: 'float' },
            { id: 'height', type: 'float' },
          ],
          [{ width: 1, height: 2 }],
        ],
      ] as const) {
        const r = await call('resource_create', {
          package_id: 'verbs',
          name,
          url: `http://example.org/${name}`,
        });
        tables[name] = String(r.id);
        await call('datastore_create', { resource_id: r.id, fields, records, force: true });
      }
      jars = await jarsOf(labld.url, WHO, PASSWORD);
    });
    after(() => labld?.stop());

    const page = (who: Who, path: string) => getPage(`${labld.url}${path}`, jars.get(who)!);

    describe("the plot's table", () => {
      test("switching the table with the other table's columns in the form draws the new table's first columns", async () => {
        const shown = await page('anonymous', `/dataset/verbs?plot=${tables.forces}&x=Zeit&y=Kraft`);
        assert.equal(shown.status, 200);
        const switched = await page('anonymous', `/dataset/verbs?plot=${tables.widths}&x=Zeit&y=Kraft`);
        assert.equal(switched.status, 200, switched.html);
        assert.match(switched.html, /<option value="width" selected>/);
        assert.match(switched.html, /<option value="height" selected>/);
      });

      test('a table not of the dataset is a 422 told in the plot section of a whole page', async () => {
        const bad = await page('anonymous', '/dataset/verbs?plot=nothing-here');
        assert.equal(bad.status, 422);
        assert.match(
          bad.html,
          /<p class="error" role="alert" id="plot-error">plot: &quot;nothing-here&quot; is not a table/,
        );
        assert.match(bad.html, /id="resources-heading"|<h2[^>]*>Resources<\/h2>/);
      });
    });

    /** An Action API call as `who` (its token; none for anonymous): the status and result. */
    async function asWho(who: Who, action: string, body: Record<string, unknown>) {
      const headers: Record<string, string> =
        who === 'anonymous' ? {} : { authorization: people.get(who)!.token };
      return api(labld.url, action, { body, headers });
    }

    /** A form of `path`'s page posted as `who`, with the CSRF field of a page they can open. */
    async function post(who: Who, path: string, fields: Record<string, string>): Promise<Response> {
      const jar = jars.get(who)!;
      const csrf = csrfOf((await getPage(`${labld.url}/user/tokens`, jar)).html);
      return postForm(`${labld.url}${path}`, jar, { ...fields, _csrf: csrf });
    }

    describe('who sees the edit forms', () => {
      for (const who of WHO) {
        test(`${who}: the Edit links and pages as the dataset's permissions say`, async () => {
          const dataset = await page(who, '/dataset/verbs');
          const resource = await page(who, `/dataset/verbs/resource/${tables.forces}`);
          const edit = await page(who, '/dataset/verbs/edit');
          const resourceEdit = await page(who, `/dataset/verbs/resource/${tables.forces}/edit`);
          const editor = who === 'editor' || who === 'admin';
          assert.equal(dataset.html.includes('href="/dataset/verbs/edit"'), editor);
          assert.equal(resource.html.includes(`/resource/${tables.forces}/edit"`), editor);
          assert.equal(edit.status, editor ? 200 : who === 'anonymous' ? 401 : 403);
          assert.equal(resourceEdit.status, editor ? 200 : who === 'anonymous' ? 401 : 403);
          assert.equal(edit.html.includes('id="dataset-edit"'), editor);
          // Members are the admins'; Delete is the editors' too (CKAN's package_delete).
          assert.equal(edit.html.includes('id="member-add"'), who === 'admin');
          assert.equal(edit.html.includes('action="/dataset/verbs/delete"'), editor);
        });
      }

      test('a private dataset: its edit page is not found for an outsider', async () => {
        await call('package_create', { name: 'hidden', private: true });
        assert.equal((await page('other', '/dataset/hidden/edit')).status, 404);
        assert.equal((await page('anonymous', '/dataset/hidden/edit')).status, 401);
      });
    });

    describe('a refused post answers what the Action API answers', () => {
      for (const who of ['reader', 'other'] as const) {
        test(`${who}: edit, delete, members as package_patch, package_delete, package_collaborator_create`, async () => {
          for (const [path, action, body, fields] of [
            ['/dataset/verbs/edit', 'package_patch', { id: 'verbs', title: 'Mine' }, { title: 'Mine' }],
            ['/dataset/verbs/delete', 'package_delete', { id: 'verbs' }, {}],
            [
              '/dataset/verbs/members',
              'package_collaborator_create',
              { id: 'verbs', user_id: who, capacity: 'admin' },
              { user: who, capacity: 'admin' },
            ],
            ['/dataset/hidden/edit', 'package_patch', { id: 'hidden', title: 'Mine' }, { title: 'Mine' }],
            [`/dataset/verbs/resource/${tables.forces}/delete`, 'resource_delete', { id: tables.forces }, {}],
          ] as const) {
            const byApi = await asWho(who, action, body);
            assert.ok(byApi.status === 403 || byApi.status === 404, `${action}: ${byApi.status}`);
            const byPage = await post(who, path, fields);
            assert.equal(byPage.status, byApi.status, `${path} as ${who}`);
          }
          const shown = await call('package_show', { id: 'verbs' });
          assert.equal(shown.title, 'Verbs');
          assert.equal(shown.state, 'active');
        });
      }
    });

    describe('the verbs done', () => {
      test("an editor changes the dataset's title, description, tags, licence and visibility", async () => {
        const posted = await post('editor', '/dataset/verbs/edit', {
          title: 'Verbs, edited',
          notes: 'Forces and widths.',
          tags: 'steel, tensile ,',
          license: 'cc-by',
          private: 'on',
        });
        assert.equal(posted.status, 303);
        assert.equal(posted.headers.get('location'), '/dataset/verbs');
        const shown = await call('package_show', { id: 'verbs' });
        assert.deepEqual(
          [
            shown.title,
            shown.notes,
            (shown.tags as { name: string }[]).map((t) => t.name).sort(),
            shown.license_id,
            shown.private,
          ],
          ['Verbs, edited', 'Forces and widths.', ['steel', 'tensile'], 'cc-by', true],
        );
        assert.equal((await page('anonymous', '/dataset/verbs')).status, 404, 'now private');
        const form = await page('editor', '/dataset/verbs/edit');
        assert.match(form.html, /<input id="dataset-tags" name="tags" type="text" value="steel, tensile">/);
        assert.match(form.html, /<option value="cc-by" selected>/);
        assert.equal((await post('editor', '/dataset/verbs/edit', { title: 'Verbs' })).status, 303);
        assert.equal((await call('package_show', { id: 'verbs' })).private, false);
      });

      test('an admin adds a member, changes their role and removes them', async () => {
        const role = async () => {
          const list = (await call('package_collaborator_list', { id: 'verbs' })) as unknown as {
            user_id: string;
            capacity: string;
          }[];
          return list.find((m) => m.user_id === people.get('other')!.user.id)?.capacity;
        };
        assert.equal(
          (await post('admin', '/dataset/verbs/members', { user: 'other', capacity: 'editor' })).status,
          303,
        );
        assert.equal(await role(), 'editor');
        assert.match((await page('admin', '/dataset/verbs/edit')).html, /<th scope="row">other<\/th>/);
        assert.equal(
          (await post('admin', '/dataset/verbs/members', { user: 'other', capacity: 'member' })).status,
          303,
        );
        assert.equal(await role(), 'member');
        const bad = await post('admin', '/dataset/verbs/members', { user: 'other', capacity: 'owner' });
        assert.equal(bad.status, 422);
        assert.equal((await post('admin', '/dataset/verbs/members/remove', { user: 'other' })).status, 303);
        assert.equal(await role(), undefined);
        // An editor is no admin: the API's 403.
        assert.equal(
          (await post('editor', '/dataset/verbs/members', { user: 'other', capacity: 'member' })).status,
          403,
        );
      });

      /** The rows of the resource's table once there are `rows` of them (or after a minute). */
      const importedRows = async (id: string, rows: number): Promise<number> => {
        const until = Date.now() + 60_000;
        let total = (await importedTable(labld.url, id)).total;
        while (total !== rows && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          total = (await importedTable(labld.url, id)).total;
        }
        return total;
      };

      test('an editor renames, replaces and deletes a resource', async () => {
        const form = new FormData();
        form.set('package_id', 'verbs');
        form.set('upload', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'first.csv');
        const made = await api(labld.url, 'resource_create', {
          form,
          headers: { authorization: owner.token },
        });
        assert.equal(made.status, 200, JSON.stringify(made.body));
        const id = String((made.body as { result: { id: string } }).result.id);
        const path = `/dataset/verbs/resource/${id}`;
        // The chain imports the first file (one row) before the file is replaced: its table
        // may be seen made and still empty for a moment.
        assert.equal(await importedRows(id, 1), 1);
        const renamed = await post('editor', `${path}/edit`, { name: 'run 1', description: 'The first run' });
        assert.equal(renamed.status, 303);
        let shown = await call('resource_show', { id });
        assert.deepEqual([shown.name, shown.description], ['run 1', 'The first run']);
        const hash = shown.hash;

        // The new file, as the page's multipart form sends it.
        const jar = jars.get('editor')!;
        const replace = new FormData();
        replace.set('_csrf', csrfOf((await getPage(`${labld.url}${path}/edit`, jar)).html));
        replace.set('file', new Blob(['a,b\n1,2\n3,4\n'], { type: 'text/csv' }), 'second.csv');
        const replaced = await fetch(`${labld.url}${path}/replace`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(), accept: 'text/html', origin: labld.url },
          body: replace,
        });
        assert.equal(replaced.status, 303, await replaced.text());
        shown = await call('resource_show', { id });
        assert.notEqual(shown.hash, hash);
        assert.equal(shown.size, 12);
        // The chain ran again on the new file: its two rows in the table.
        assert.equal(await importedRows(id, 2), 2);

        const deleted = await post('editor', `${path}/delete`, {});
        assert.equal(deleted.status, 303);
        assert.equal(deleted.headers.get('location'), '/dataset/verbs');
        assert.equal((await asWho('editor', 'resource_show', { id })).status, 404);
      });

      test('an admin deletes the dataset', async () => {
        await call('package_create', { name: 'doomed' });
        await call('package_collaborator_create', { id: 'doomed', user_id: 'admin', capacity: 'admin' });
        const deleted = await post('admin', '/dataset/doomed/delete', {});
        assert.equal(deleted.status, 303);
        assert.equal(deleted.headers.get('location'), '/dataset');
        assert.equal((await page('anonymous', '/dataset/doomed')).status, 404);
      });
    });

    describe('the table preview', () => {
      const preview = async (query: string) => {
        const shown = await page('anonymous', `/dataset/verbs/resource/${tables.forces}?${query}`);
        const probes = [...shown.html.matchAll(/<td>(P\d) [A-Za-z]+<\/td>/g)].map((m) => m[1]);
        return { ...shown, probes };
      };

      test("a column's unit in its header, from the table's fields", async () => {
        const { html } = await preview('');
        assert.match(html, />Kraft <span class="unit">\[kN\]<\/span>/);
        assert.match(html, />Zeit<span aria-hidden="true">/);
      });

      test('words searched in every text column (q)', async () => {
        assert.deepEqual((await preview('q=stahl')).probes, ['P1', 'P2']);
        assert.deepEqual((await preview('q=kupfer+P3')).probes, ['P3']);
        assert.match(
          (await preview('q=stahl')).html,
          /<input id="preview-q" name="q" type="search" value="stahl">/,
        );
      });

      test('a number column between a lowest and a highest value, bounds included', async () => {
        assert.deepEqual((await preview('min.Kraft=250&max.Kraft=410')).probes, ['P2', 'P3']);
        assert.deepEqual((await preview('min.Kraft=100')).probes, ['P2', 'P3']);
        assert.deepEqual((await preview('max.Zeit=1.5&q=stahl')).probes, ['P1', 'P2']);
        const shown = await preview('min.Kraft=100&sort=Zeit&order=desc');
        assert.deepEqual(shown.probes, ['P3', 'P2']);
        assert.match(shown.html, /name="min.Kraft" type="search" inputmode="decimal" value="100"/);
      });

      test('a bound that is no number, or on a text column, is a 422 naming the parameter', async () => {
        const word = await preview('min.Kraft=lots');
        assert.equal(word.status, 422);
        assert.match(word.html, /min\.Kraft: column &quot;Kraft&quot; holds numbers/);
        const text = await preview('max.Probe=3');
        assert.equal(text.status, 422);
        assert.match(text.html, /max\.Probe: column &quot;Probe&quot; holds text/);
      });
    });

    describe('the forms need their CSRF field', () => {
      test("an admin's post without it changes nothing: 403", async () => {
        const jar = jars.get('admin')!;
        for (const path of ['/dataset/verbs/edit', '/dataset/verbs/delete', '/dataset/verbs/members']) {
          const posted = await postForm(`${labld.url}${path}`, jar, {
            title: 'Forged',
            user: 'other',
            capacity: 'admin',
          });
          assert.equal(posted.status, 403, path);
        }
        const replace = new FormData();
        replace.set('file', new Blob(['x,y\n1,2\n'], { type: 'text/csv' }), 'forged.csv');
        const replaced = await fetch(`${labld.url}/dataset/verbs/resource/${tables.widths}/replace`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(), accept: 'text/html', origin: labld.url },
          body: replace,
        });
        assert.equal(replaced.status, 403);
        const shown = await call('package_show', { id: 'verbs' });
        assert.notEqual(shown.title, 'Forged');
        assert.equal(shown.state, 'active');
      });
    });
  });
}
