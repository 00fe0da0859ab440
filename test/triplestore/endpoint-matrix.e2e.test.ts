// The SPARQL endpoint's authorization matrix on a whole labld: {anonymous, reader, editor,
// admin, other user, sysadmin} × {public, private dataset} × {query, update, load}, against
// statuses written here by hand from the spec's SPARQL access rules and the catalogue's
// (public: anyone reads; private: members read, other users are told it does not exist,
// anonymous callers to log in — 401, as a missing dataset answers them — for writes as well;
// updates and the load button: editors, admins, sysadmins; other anonymous writes: log in) —
// not computed by the
// code under test. Then a property: any query text answers a 4xx or a result, never a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import fc from '../support/fc.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { endpoint, loadAndWait, sparql, uploadTurtle, SAMPLE_TTL } from './endpoint-support.ts';

const ACTORS = ['anonymous', 'reader', 'editor', 'admin', 'other', 'sysadmin'] as const;
type ActorName = (typeof ACTORS)[number];
type Visibility = 'public' | 'private';

/** Statuses in ACTORS order. */
const EXPECTED: Record<'query' | 'update' | 'load', Record<Visibility, number[]>> = {
  query: { public: [200, 200, 200, 200, 200, 200], private: [401, 200, 200, 200, 404, 200] },
  update: { public: [401, 403, 204, 204, 403, 204], private: [401, 403, 204, 204, 404, 204] },
  // The Action API's statuses: CKAN answers a missing login 403 (Authorization Error) too.
  load: { public: [403, 403, 200, 200, 403, 200], private: [404, 403, 200, 200, 404, 200] },
};

let labld: Running & { dataDir: string };
const people = new Map<ActorName, Person | undefined>();
const graphs = new Map<Visibility, string>();
let owner: Person;

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  owner = await person(store, 'owner');
  people.set('anonymous', undefined);
  for (const name of ['reader', 'editor', 'admin', 'other'] as const)
    people.set(name, await person(store, name));
  people.set('sysadmin', await person(store, 'root', true));
  await store.close();
  const roles = { reader: 'member', editor: 'editor', admin: 'admin' } as const;
  for (const visibility of ['public', 'private'] as const) {
    const made = await api(labld.url, 'package_create', {
      body: { name: visibility, private: visibility === 'private' },
      headers: { authorization: owner.token },
    });
    assert.equal(made.status, 200);
    for (const [actor, capacity] of Object.entries(roles)) {
      const added = await api(labld.url, 'package_collaborator_create', {
        body: { id: visibility, user_id: people.get(actor as ActorName)!.user.name, capacity },
        headers: { authorization: owner.token },
      });
      assert.equal(added.status, 200);
    }
    const resource = await uploadTurtle(labld.url, owner, visibility, 'm-joined.ttl', SAMPLE_TTL);
    await loadAndWait(labld.url, owner, visibility);
    graphs.set(visibility, resource.url);
  }
});
after(() => labld?.stop());

describe('the endpoint follows the catalogue: actor × dataset × operation', () => {
  for (const visibility of ['public', 'private'] as const) {
    ACTORS.forEach((actor, index) => {
      it(`${actor} on the ${visibility} dataset`, async () => {
        const who = people.get(actor);
        const query = await sparql(labld.url, visibility, 'SELECT * WHERE { ?s ?p ?o }', { who });
        assert.equal(query.status, EXPECTED.query[visibility][index], `query: ${query.text}`);
        if (query.status === 200) assert.equal(JSON.parse(query.text).results.bindings.length >= 4, true);

        const insert = `INSERT DATA { GRAPH <${graphs.get(visibility)}> { <urn:x:${actor}> <urn:x:p> 1 } }`;
        const update = await sparql(labld.url, visibility, insert, { who, method: 'sparql-update' });
        assert.equal(update.status, EXPECTED.update[visibility][index], `update: ${update.text}`);

        const load = await api(labld.url, 'triplestore_load', {
          body: { id: visibility },
          headers: who ? { authorization: who.token } : {},
        });
        assert.equal(load.status, EXPECTED.load[visibility][index], `load: ${JSON.stringify(load.body)}`);
        if (load.status === 200) assert.equal(load.body.result.status, 'pending');
      });
    });
  }
});

/** Text that is often nearly SPARQL: keywords, variables, IRIs, braces, and noise. */
const TOKENS = [
  'SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE', 'WHERE', 'FROM', 'NAMED', 'GRAPH', 'SERVICE', 'OPTIONAL',
  'UNION', 'FILTER', 'LIMIT', '1', '*', '?s', '?p', '?o', '{', '}', '(', ')', '.', ';', ',', '<urn:x>',
  '<http://example.org/force>', '"a"', 'regex(?o, "a")', 'COUNT(*)', 'AS', 'BIND', 'VALUES', '/', '|',
  '^', 'a', 'PREFIX', 'ex:', 'INSERT', 'DELETE', 'DATA', 'LOAD', 'CLEAR', 'DROP', 'ALL', '#', '\n',
]; // prettier-ignore

test('any query text answers a 4xx or a result, never a 5xx', async () => {
  const text = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }).map((t) => t.join(' ')),
  );
  await fc.assert(
    fc.asyncProperty(
      text,
      fc.constantFrom('get', 'form', 'sparql-query') as fc.Arbitrary<'get'>,
      async (q, method) => {
        const answer = await sparql(labld.url, 'public', q, { method });
        assert.ok(
          answer.status < 500,
          `${answer.status} for ${JSON.stringify(q)}: ${answer.text.slice(0, 200)}`,
        );
        if (answer.status >= 400) assert.ok(typeof JSON.parse(answer.text).detail === 'string');
      },
    ),
    { numRuns: 150 },
  );
});

test('the endpoint URL names the dataset by id or name alike', async () => {
  const id = (await api(labld.url, 'package_show', { query: { id: 'public' } })).body.result.id as string;
  const byId = await fetch(`${endpoint(labld.url, id)}?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`);
  assert.deepEqual(await byId.json(), { head: {}, boolean: true });
});
