// The dataset endpoints as SPARQL protocol clients see them: PyPI SPARQLWrapper and rdflib's
// SPARQLStore (sparql_clients.py) against a running labld — every result format over GET, POST
// (direct) and POST (URL-encoded form), a malformed query raising QueryBadFormed, and a private
// dataset answering 401 without credentials and the rows with a password or an API token as
// HTTP Basic. .ci/run makes the venv and points LABLD_SPARQLCLIENTS_PYTHON at its python; unset,
// this fails rather than skips.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { runClient } from '../../support/python.ts';
import { person } from '../../catalogue/actions/support.ts';
import { endpoint, openAndClosed } from '../endpoint-support.ts';

const python = process.env.LABLD_SPARQLCLIENTS_PYTHON ?? '';
const script = new URL('./sparql_clients.py', import.meta.url).pathname;
const PASSWORD = 'a notebook password, long enough';
const FORCES = ['1.5', '2.5'];
const METHODS = ['GET', 'POST', 'POST form'];

interface Step {
  step: string;
  ok: boolean;
  detail: unknown;
}

describe('SPARQLWrapper and rdflib SPARQLStore against the dataset endpoints', () => {
  let labld: Running & { dataDir: string };
  const steps = new Map<string, Step>();
  const detail = (name: string): unknown => {
    const step = steps.get(name);
    assert.ok(step, `the script never reached step ${name}`);
    assert.ok(step.ok, `${name}: ${JSON.stringify(step.detail)}`);
    return step.detail;
  };

  before(async () => {
    if (!python)
      throw new Error(
        'LABLD_SPARQLCLIENTS_PYTHON is not set: a python with SPARQLWrapper and rdflib (see .ci/run)',
      );
    labld = await startLabld();
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    const owner = await person(store, 'owner');
    await store.updateUser(owner.user.id, { password_hash: await hashPassword(PASSWORD) });
    await store.close();
    await openAndClosed(labld.url, owner);
    const args = [endpoint(labld.url, 'open'), endpoint(labld.url, 'closed'), 'owner', PASSWORD, owner.token];
    const stdout = await runClient(python, [script, ...args], { what: 'SPARQL clients script' });
    for (const line of stdout.split('\n').filter((l) => l.startsWith('{"step"'))) {
      const step = JSON.parse(line) as Step;
      steps.set(step.step, step);
    }
  });
  after(() => labld?.stop());

  for (const method of METHODS) {
    it(`SPARQLWrapper ${method}: SELECT as JSON, XML, CSV and TSV`, () => {
      const prefix = `SPARQLWrapper ${method} SELECT`;
      const [jsonType, json] = detail(`${prefix} json`) as [string, string[]];
      assert.match(jsonType, /^application\/sparql-results\+json/);
      assert.deepEqual(json, FORCES);
      const [xmlType, xml] = detail(`${prefix} xml`) as [string, string[]];
      assert.match(xmlType, /^application\/sparql-results\+xml/);
      assert.deepEqual(xml, FORCES);
      const [csvType, csv] = detail(`${prefix} csv`) as [string, string[]];
      assert.match(csvType, /^text\/csv/);
      assert.deepEqual(csv, ['s,force', 'http://example.org/m1,1.5', 'http://example.org/m2,2.5']);
      const [tsvType, tsv] = detail(`${prefix} tsv`) as [string, string[]];
      assert.match(tsvType, /^text\/tab-separated-values/);
      assert.equal(tsv[0], '?s\t?force');
      assert.equal(tsv.length, 3);
    });

    it(`SPARQLWrapper ${method}: CONSTRUCT as Turtle, N-Triples, RDF/XML and JSON-LD, parsed by rdflib`, () => {
      for (const [format, type] of [
        ['turtle', /^text\/turtle/],
        ['n-triples', /^application\/n-triples/],
        ['rdf/xml', /^application\/rdf\+xml/],
        ['json-ld', /^application\/ld\+json/],
      ] as const) {
        const [kind, count] = detail(`SPARQLWrapper ${method} CONSTRUCT ${format}`) as [string, number];
        assert.match(kind, type, format);
        assert.equal(count, 4, format);
      }
    });

    it(`SPARQLWrapper ${method}: a malformed query raises QueryBadFormed (400)`, () => {
      const [raised, text] = detail(`SPARQLWrapper ${method} malformed`) as [string, string];
      assert.equal(raised, 'QueryBadFormed');
      assert.match(text, /not valid SPARQL/);
    });

    it(`SPARQLWrapper ${method}: a private dataset is Unauthorized without credentials, read with a password or a token`, () => {
      assert.equal((detail(`SPARQLWrapper ${method} private anonymous`) as string[])[0], 'Unauthorized');
      assert.deepEqual(detail(`SPARQLWrapper ${method} private password`), FORCES);
      assert.deepEqual(detail(`SPARQLWrapper ${method} private token`), FORCES);
    });

    it(`rdflib SPARQLStore ${method}: SELECT in each results format, CONSTRUCT, a private dataset by auth`, () => {
      for (const format of ['json', 'xml', 'csv', 'tsv']) {
        assert.deepEqual(detail(`SPARQLStore ${method} SELECT ${format}`), FORCES, format);
      }
      assert.equal(detail(`SPARQLStore ${method} CONSTRUCT`), 4);
      assert.deepEqual(detail(`SPARQLStore ${method} private password`), FORCES);
      // rdflib reads no challenge: the status it saw (GET: behind a ValueError; POST: returned).
      assert.equal(detail(`SPARQLStore ${method} private anonymous`), 401);
    });
  }
});
