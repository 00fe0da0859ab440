// The SPARQL 1.1 Protocol points a protocol client relies on, on a whole labld: 400 for what
// the endpoint cannot take (SPARQLWrapper's QueryBadFormed), `format` from the URL and the body
// together, 406 when no format asked for is offered, HTTP Basic (a password or an API token)
// where a token is taken, a challenge on every 401, the Service Description on a GET without a
// query, and CORS. The expected answers are written here from the protocol and the issue. Run
// on the embedded catalogue store (protocol.e2e.test.ts) and on PostgreSQL (protocol.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { parse } from '../../lib/rdf/index.ts';
import { person, type Person } from '../catalogue/actions/support.ts';
import { endpoint, openAndClosed } from './endpoint-support.ts';

/** A labld to test: its URL, data directory and, on PostgreSQL, its database. */
export interface Started {
  url: string;
  dataDir: string;
  databaseUrl?: string;
  stop(): Promise<void>;
}

let labld: Started;
let owner: Person;
let graph: string;
const PASSWORD = 'correct horse battery staple';
const SELECT = 'SELECT ?s ?force WHERE { ?s <http://example.org/force> ?force } ORDER BY ?force';
const CONSTRUCT = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }';
const SD = 'http://www.w3.org/ns/sparql-service-description#';

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
const at = (dataset: string, query = '') => `${endpoint(labld.url, dataset)}${query}`;
const q = (text: string) => `?query=${encodeURIComponent(text)}`;
const detail = async (answer: Response) => ((await answer.json()) as { detail: string }).detail;

export function protocolSuite(where: string, start: () => Promise<Started>): void {
  describe(`the SPARQL 1.1 Protocol, catalogue on ${where}`, () => {
    before(async () => {
      labld = await start();
      const store = await openCatalogueStore({ dataDir: labld.dataDir, databaseUrl: labld.databaseUrl });
      owner = await person(store, 'owner');
      await store.updateUser(owner.user.id, { password_hash: await hashPassword(PASSWORD) });
      await store.close();
      graph = (await openAndClosed(labld.url, owner)).open;
    });
    after(() => labld?.stop());

    describe('400 for what the endpoint cannot take', () => {
      test('malformed, empty or repeated query, a query by GET as update: 400 with the reason', async () => {
        for (const [query, reason] of [
          [q('SELEC * WHERE'), /^query: not valid SPARQL/],
          ['?query=', /^query: no SPARQL query given/],
          ['?query=a&query=b', /^query: given more than once/],
          [`?update=${encodeURIComponent('CLEAR ALL')}`, /^update: an update must be sent with POST/],
        ] as const) {
          const answer = await fetch(at('open', query));
          assert.equal(answer.status, 400, query);
          assert.match(await detail(answer), reason);
        }
        const posted = await fetch(at('open'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'format=json',
        });
        assert.equal(posted.status, 400);
        assert.match(await detail(posted), /^query: missing/);
      });

      test('format in the URL and in the form: taken when they agree, 400 naming format when not', async () => {
        const post = (url: string, body: string) =>
          fetch(at('open', url), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body,
          });
        const form = `query=${encodeURIComponent(SELECT)}`;
        const agree = await post('?format=csv', `${form}&format=csv`);
        assert.equal(agree.status, 200);
        assert.match(agree.headers.get('content-type') ?? '', /^text\/csv/);
        assert.equal((await agree.text()).split('\r\n')[0], 's,force');
        const differ = await post('?format=csv', `${form}&format=json`);
        assert.equal(differ.status, 400);
        assert.match(await detail(differ), /^format: the URL and the body give different values/);
      });

      test('format over Accept, as SPARQLWrapper sends it: by GET, by POST direct, repeated for TSV', async () => {
        const csv = await fetch(at('open', `${q(SELECT)}&format=csv&output=csv&results=csv`), {
          headers: { accept: 'application/sparql-results+json' },
        });
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        const direct = await fetch(at('open', '?format=xml&output=xml'), {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-query' },
          body: SELECT,
        });
        assert.match(direct.headers.get('content-type') ?? '', /^application\/sparql-results\+xml/);
        const tsv = await fetch(at('open', `${q(SELECT)}&format=tsv&format=text/tab-separated-values`));
        assert.equal(tsv.status, 200);
        assert.match(tsv.headers.get('content-type') ?? '', /^text\/tab-separated-values/);
        // One name for both forms: xml is RDF/XML for a CONSTRUCT.
        const rdfxml = await fetch(at('open', `${q(CONSTRUCT)}&format=xml`));
        assert.match(rdfxml.headers.get('content-type') ?? '', /^application\/rdf\+xml/);
      });
    });

    test('406 when no format asked for is offered, naming Accept or format', async () => {
      const graphAsCsv = await fetch(at('open', q(CONSTRUCT)), { headers: { accept: 'text/csv' } });
      assert.equal(graphAsCsv.status, 406);
      assert.match(
        await detail(graphAsCsv),
        /^Accept: none of text\/csv is offered here; one of text\/turtle/,
      );
      const tableAsImage = await fetch(at('open', q(SELECT)), { headers: { accept: 'image/png' } });
      assert.equal(tableAsImage.status, 406);
      const unknown = await fetch(at('open', `${q(SELECT)}&format=pdf`));
      assert.equal(unknown.status, 406);
      assert.match(await detail(unknown), /^format: "pdf" is not a format offered here/);
      const tableAsTurtle = await fetch(at('open', `${q(SELECT)}&format=turtle`));
      assert.equal(tableAsTurtle.status, 406);
      assert.match(await detail(tableAsTurtle), /^format: none of text\/turtle/);
      // Anything, or nothing, still gets the default.
      for (const accept of ['*/*', '']) {
        const answer = await fetch(at('open', q(SELECT)), { headers: accept ? { accept } : {} });
        assert.match(answer.headers.get('content-type') ?? '', /^application\/sparql-results\+json/);
      }
    });

    describe('HTTP Basic where a token is taken; a challenge on every 401', () => {
      const challenged = (answer: Response) => {
        assert.equal(answer.status, 401);
        const challenge = answer.headers.get('www-authenticate') ?? '';
        assert.match(challenge, /Basic realm="labld"/);
        assert.match(challenge, /Bearer realm="labld"/);
      };

      test('a private dataset: a user name with the password or with an API token reads it', async () => {
        for (const authorization of [basic('owner', PASSWORD), basic('owner', owner.token), owner.token]) {
          const answer = await fetch(at('closed', q(SELECT)), { headers: { authorization } });
          assert.equal(answer.status, 200, authorization.slice(0, 12));
          assert.equal(
            ((await answer.json()) as { results: { bindings: unknown[] } }).results.bindings.length,
            2,
          );
        }
      });

      test('an update by Basic with the password', async () => {
        const answer = await fetch(at('open'), {
          method: 'POST',
          headers: { authorization: basic('owner', PASSWORD), 'content-type': 'application/sparql-update' },
          body: `INSERT DATA { GRAPH <${graph}> { <http://example.org/m9> <http://example.org/note> "basic" } }`,
        });
        assert.equal(answer.status, 204);
      });

      test('without credentials, a private or a missing dataset: the same 401 with the challenge', async () => {
        const closed = await fetch(at('closed', q(SELECT)));
        challenged(closed);
        const missing = await fetch(at('nowhere', q(SELECT)));
        challenged(missing);
        assert.equal(
          (await detail(closed)).replace('closed', 'X'),
          (await detail(missing)).replace('nowhere', 'X'),
        );
      });

      test('a wrong password, a broken token, an anonymous update: 401 with the challenge', async () => {
        challenged(
          await fetch(at('closed', q(SELECT)), { headers: { authorization: basic('owner', 'wrong one') } }),
        );
        challenged(await fetch(at('open', q(SELECT)), { headers: { authorization: 'Bearer nonsense' } }));
        challenged(await fetch(at('open', q(SELECT)), { headers: { authorization: 'Basic ###' } }));
        challenged(
          await fetch(at('open'), {
            method: 'POST',
            headers: { 'content-type': 'application/sparql-update' },
            body: 'CLEAR ALL',
          }),
        );
      });

      test('guessing passwords by Basic meets the login throttle: 429 with Retry-After', async () => {
        const guess = (n: number) =>
          fetch(at('closed', q(SELECT)), {
            headers: { authorization: basic('guessed', `guess number ${n}`) },
          });
        let answer = await guess(0);
        for (let n = 1; n <= 10 && answer.status === 401; n++) answer = await guess(n);
        assert.equal(answer.status, 429);
        assert.match(await detail(answer), /^Authorization: too many failed logins/);
        assert.ok(Number(answer.headers.get('retry-after')) >= 1);
      });
    });

    describe('the Service Description on a GET without a query', () => {
      test('Turtle: the service, its endpoint, languages, formats and the dataset with its graph', async () => {
        const answer = await fetch(at('open'), { headers: { accept: 'text/turtle' } });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-type') ?? '', /^text\/turtle/);
        const quads = await parse(await answer.text(), 'turtle');
        const objects = (p: string) =>
          quads.filter((x) => x.predicate.value === `${SD}${p}`).map((x) => x.object.value);
        const service = quads.find((x) => x.object.value === `${SD}Service`)?.subject;
        assert.ok(service);
        // At the site's BASE_URL (here its default, localhost on labld's port).
        const [where] = objects('endpoint').map((url) => new URL(url));
        assert.equal(where?.pathname, '/dataset/open/triplestore/sparql');
        assert.equal(where?.port, new URL(labld.url).port);
        assert.deepEqual(objects('supportedLanguage').sort(), [`${SD}SPARQL11Query`, `${SD}SPARQL11Update`]);
        assert.ok(objects('resultFormat').includes('http://www.w3.org/ns/formats/SPARQL_Results_JSON'));
        assert.ok(objects('resultFormat').includes('http://www.w3.org/ns/formats/Turtle'));
        assert.deepEqual(objects('feature'), [`${SD}UnionDefaultGraph`]);
        assert.equal(objects('defaultDataset').length, 1);
        assert.equal(objects('defaultGraph').length, 1);
        assert.deepEqual(objects('name'), [graph]);
      });

      test('without Accept Turtle; JSON-LD when asked; a browser goes to the query page', async () => {
        const plain = await fetch(at('open'));
        assert.match(plain.headers.get('content-type') ?? '', /^text\/turtle/);
        const jsonld = await fetch(at('open'), { headers: { accept: 'application/ld+json' } });
        assert.ok((await parse(await jsonld.text(), 'json-ld')).length > 10);
        const browser = await fetch(at('open'), {
          headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
          redirect: 'manual',
        });
        assert.equal(browser.status, 303);
        assert.equal(browser.headers.get('location'), '/dataset/open/query');
      });

      test('a private dataset describes itself only to its readers', async () => {
        assert.equal((await fetch(at('closed'))).status, 401);
        const known = await fetch(at('closed'), { headers: { authorization: basic('owner', owner.token) } });
        assert.equal(known.status, 200);
      });
    });

    describe('CORS', () => {
      test('the preflight allows GET and POST with Authorization and Content-Type from any origin', async () => {
        const answer = await fetch(at('open'), {
          method: 'OPTIONS',
          headers: {
            origin: 'http://elsewhere.test',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        assert.equal(answer.status, 204);
        assert.equal(answer.headers.get('access-control-allow-origin'), '*');
        assert.match(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
        const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase();
        assert.match(allowed, /authorization/);
        assert.match(allowed, /content-type/);
      });

      test('answers and errors carry Allow-Origin, never Allow-Credentials (a cookie never counts cross-origin)', async () => {
        const origin = { origin: 'http://elsewhere.test' };
        for (const answer of [
          await fetch(at('open', q(SELECT)), { headers: origin }),
          await fetch(at('open', q('SELEC')), { headers: origin }),
          await fetch(at('closed', q(SELECT)), { headers: origin }),
          await fetch(at('open'), { headers: origin }),
        ]) {
          assert.equal(answer.headers.get('access-control-allow-origin'), '*', String(answer.status));
          assert.equal(answer.headers.get('access-control-allow-credentials'), null);
          assert.match(answer.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
        }
      });
    });
  });
}
