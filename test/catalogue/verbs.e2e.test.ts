// The catalogue's ordinary verbs on its pages, on a whole labld over HTTP (issue 28, item 6): the
// plot's table switch told in place, and who sees and may send the forms that edit, replace and
// delete — a refused post answers what the Action API answers the same person.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedPeople } from './support/people.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, type Person } from './actions/support.ts';
import { getPage, jarsOf, type CookieJar } from './support/login.ts';

const PASSWORD = 'the verbs have long passwords';
const WHO = ['anonymous', 'reader', 'editor', 'admin', 'other'] as const;
type Who = (typeof WHO)[number];

let labld: Running & { dataDir: string };
let owner: Person;
let jars = new Map<Who, CookieJar>();
/** The two tables of dataset `verbs`: resource ids. */
const tables: Record<'forces' | 'widths', string> = { forces: '', widths: '' };

async function call(action: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await api(labld.url, action, { body, headers: { authorization: owner.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as { result: Record<string, unknown> }).result;
}

before(async () => {
  labld = await startLabld();
  owner = await seedPeople(labld.dataDir, WHO, PASSWORD);
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
        { id: 'Kraft', type: 'float' },
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
    const r = await call('resource_create', { package_id: 'verbs', name, url: `http://example.org/${name}` });
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
