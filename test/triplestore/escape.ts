// The escape suite: a reader (and editor) of dataset A tries to read or change dataset B, the
// store's bookkeeping, the server itself or anything else. Every attempt must end as a clear
// DomainError or as a result that SPARQL defines for A's graphs alone (so without B's secret);
// afterwards B is exactly as loaded. Run on both stores.
import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../../lib/process/errors.ts';
import type { QueryResult, TripleStore } from '../../lib/triplestore/contract.ts';
import {
  type Namespace,
  type TripleStoreEnvironment,
  count,
  datasetId,
  graphOf,
  numbered,
  rows,
  turtle,
} from './support.ts';

/** Kinds an escape may end with: refused, malformed, too big, too slow. */
const REFUSALS = new Set(['forbidden', 'invalid', 'too-large', 'upstream-timeout']);

interface Attempt {
  name: string;
  kind: 'query' | 'update';
  text: (b: string, a: string) => string;
  /** The only acceptable outcome is a refusal (never a result, even an empty one). */
  mustRefuse?: boolean;
}

const REGISTRY = 'urn:labld:triplestore:datasets';
const q = (name: string, text: Attempt['text'], mustRefuse = false): Attempt => ({
  name,
  kind: 'query',
  text,
  mustRefuse,
});
const u = (name: string, text: Attempt['text']): Attempt => ({
  name,
  kind: 'update',
  text,
  mustRefuse: true,
});
/** An update that may run, but only over A's graphs: it must copy nothing of B into A. */
const harmless = (name: string, text: Attempt['text']): Attempt => ({ name, kind: 'update', text });

const ATTEMPTS: Attempt[] = [
  q('FROM <B>', (b) => `SELECT * FROM <${b}> WHERE { ?s ?p ?o }`, true),
  q('FROM NAMED <B>', (b) => `SELECT * FROM NAMED <${b}> WHERE { GRAPH ?g { ?s ?p ?o } }`, true),
  q('FROM <A> FROM <B>', (b, a) => `SELECT * FROM <${a}> FROM <${b}> WHERE { ?s ?p ?o }`, true),
  q('GRAPH <B>', (b) => `SELECT * WHERE { GRAPH <${b}> { ?s ?p ?o } }`, true),
  q('GRAPH ?g', () => 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }'),
  q('GRAPH ?g {} lists graphs', () => 'SELECT ?g WHERE { GRAPH ?g { } }'),
  q('SERVICE', () => 'SELECT * WHERE { SERVICE <http://127.0.0.1:13030/labld/sparql> { ?s ?p ?o } }', true),
  q('SERVICE SILENT', () => 'SELECT * WHERE { SERVICE SILENT <http://localhost/sparql> { ?s ?p ?o } }', true),
  q(
    'SERVICE with a variable',
    () => 'SELECT * WHERE { BIND(<http://localhost/sparql> AS ?e) SERVICE ?e { ?s ?p ?o } }',
    true,
  ),
  q('VALUES ?g { <B> } GRAPH ?g', (b) => `SELECT * WHERE { VALUES ?g { <${b}> } GRAPH ?g { ?s ?p ?o } }`),
  q('trailing VALUES ?g { <B> }', (b) => `SELECT * WHERE { GRAPH ?g { ?s ?p ?o } } VALUES ?g { <${b}> }`),
  q('BIND(<B> AS ?g) GRAPH ?g', (b) => `SELECT * WHERE { BIND(<${b}> AS ?g) GRAPH ?g { ?s ?p ?o } }`),
  q('BIND(IRI(built B)) GRAPH ?g', (b) => {
    const cut = Math.floor(b.length / 2);
    return `SELECT * WHERE { BIND(IRI(CONCAT("${b.slice(0, cut)}", "${b.slice(cut)}")) AS ?g) GRAPH ?g { ?s ?p ?o } }`;
  }),
  q(
    'Jena union graph, built',
    () => 'SELECT * WHERE { BIND(IRI(CONCAT("urn:x-arq:", "UnionGraph")) AS ?g) GRAPH ?g { ?s ?p ?o } }',
  ),
  q(
    'GRAPH <urn:x-arq:UnionGraph>',
    () => 'SELECT * WHERE { GRAPH <urn:x-arq:UnionGraph> { ?s ?p ?o } }',
    true,
  ),
  q(
    'GRAPH <urn:x-arq:DefaultGraph>',
    () => 'SELECT * WHERE { GRAPH <urn:x-arq:DefaultGraph> { ?s ?p ?o } }',
    true,
  ),
  q('FROM <urn:x-arq:UnionGraph>', () => 'SELECT * FROM <urn:x-arq:UnionGraph> WHERE { ?s ?p ?o }', true),
  q('the bookkeeping graph', () => `SELECT * WHERE { GRAPH <${REGISTRY}> { ?s ?p ?o } }`, true),
  q(
    'the bookkeeping graph, built',
    () =>
      `SELECT * WHERE { BIND(IRI(CONCAT("urn:labld:", "triplestore:datasets")) AS ?g) GRAPH ?g { ?s ?p ?o } }`,
  ),
  q(
    'subquery GRAPH <B>',
    (b) => `SELECT * WHERE { { SELECT ?s WHERE { GRAPH <${b}> { ?s ?p ?o } } } }`,
    true,
  ),
  q(
    'subquery GRAPH ?g filtered to B',
    (b) => `SELECT * WHERE { { SELECT ?g ?o WHERE { GRAPH ?g { ?s ?p ?o } } } FILTER(?g = <${b}>) }`,
  ),
  q(
    'FILTER EXISTS GRAPH <B>',
    (b) => `SELECT * WHERE { ?s ?p ?o FILTER EXISTS { GRAPH <${b}> { ?x ?y ?z } } }`,
    true,
  ),
  q('FILTER NOT EXISTS GRAPH <B>', (b) => `ASK { FILTER NOT EXISTS { GRAPH <${b}> { ?x ?y ?z } } }`, true),
  q('OPTIONAL GRAPH <B>', (b) => `SELECT * WHERE { ?s ?p ?o OPTIONAL { GRAPH <${b}> { ?x ?y ?z } } }`, true),
  q('UNION GRAPH <B>', (b) => `SELECT * WHERE { { ?s ?p ?o } UNION { GRAPH <${b}> { ?s ?p ?o } } }`, true),
  q('MINUS GRAPH <B>', (b) => `SELECT * WHERE { ?s ?p ?o MINUS { GRAPH <${b}> { ?s ?p ?o } } }`, true),
  q(
    'prefixed graph name',
    (b) =>
      `PREFIX b: <${b.slice(0, b.lastIndexOf('/') + 1)}> SELECT * WHERE { GRAPH b:${b.slice(b.lastIndexOf('/') + 1)} { ?s ?p ?o } }`,
    true,
  ),
  q(
    'relative graph name under BASE',
    (b) =>
      `BASE <${b.slice(0, b.lastIndexOf('/') + 1)}> SELECT * WHERE { GRAPH <${b.slice(b.lastIndexOf('/') + 1)}> { ?s ?p ?o } }`,
    true,
  ),
  q('property path closure', () => 'SELECT * WHERE { ?s (<urn:p:value>|!<urn:p:value>)+ ?o }'),
  q(
    "path from B's hidden subject",
    () => 'SELECT * WHERE { <urn:b:hidden0> (<urn:p:value>|^<urn:p:value>)* ?o }',
  ),
  q('negated property set inside GRAPH ?g', () => 'SELECT * WHERE { GRAPH ?g { ?s !<urn:nothing> ?o } }'),
  q('ASK GRAPH <B>', (b) => `ASK { GRAPH <${b}> { ?s ?p ?o } }`, true),
  q('ASK FROM <B>', (b) => `ASK FROM <${b}> { ?s ?p ?o }`, true),
  q('ASK the secret', () => 'ASK { ?s ?p ?o FILTER(CONTAINS(STR(?o), "secret")) }'),
  q('CONSTRUCT from GRAPH <B>', (b) => `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${b}> { ?s ?p ?o } }`, true),
  q('CONSTRUCT FROM <B>', (b) => `CONSTRUCT { ?s ?p ?o } FROM <${b}> WHERE { ?s ?p ?o }`, true),
  q("DESCRIBE B's subject", () => 'DESCRIBE <urn:b:hidden0>'),
  q('DESCRIBE FROM <B>', (b) => `DESCRIBE ?s FROM <${b}> WHERE { ?s ?p ?o }`, true),
  q(
    'Jena java: function',
    () => 'SELECT * WHERE { ?s ?p ?o FILTER(<java:org.apache.jena.sparql.function.library.sqrt>(4) > 1) }',
    true,
  ),
  q(
    'ARQ extension function',
    () => 'SELECT * WHERE { ?s ?p ?o BIND(<http://jena.apache.org/ARQ/function#sha1sum>(?o) AS ?h) }',
    true,
  ),
  q('huge cross-product, rows', () => 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }', true),
  q(
    'huge cross-product, triples',
    () => 'CONSTRUCT { ?a <urn:p:pair> ?d } WHERE { ?a ?b ?c . ?d ?e ?f }',
    true,
  ),
  q(
    'huge cross-product, counted',
    () => 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }',
    true,
  ),
  q('an update sent as a query', () => 'LOAD <http://example.org/data.ttl>', true),
  u('LOAD', () => 'LOAD <http://example.org/data.ttl>'),
  u('LOAD INTO A', (_, a) => `LOAD <http://example.org/data.ttl> INTO GRAPH <${a}>`),
  u('CLEAR ALL', () => 'CLEAR ALL'),
  u('CLEAR NAMED', () => 'CLEAR NAMED'),
  u('CLEAR DEFAULT', () => 'CLEAR DEFAULT'),
  u('DROP ALL', () => 'DROP ALL'),
  u('DROP SILENT NAMED', () => 'DROP SILENT NAMED'),
  u('DROP GRAPH <B>', (b) => `DROP GRAPH <${b}>`),
  u('CLEAR GRAPH <B>', (b) => `CLEAR GRAPH <${b}>`),
  u('CREATE GRAPH', () => 'CREATE GRAPH <urn:new:graph>'),
  u('COPY <B> TO <A>', (b, a) => `COPY <${b}> TO <${a}>`),
  u('COPY <A> TO <B>', (b, a) => `COPY <${a}> TO <${b}>`),
  u('MOVE <B> TO <A>', (b, a) => `MOVE <${b}> TO <${a}>`),
  u('ADD <A> TO <B>', (b, a) => `ADD <${a}> TO <${b}>`),
  u('COPY DEFAULT TO <A>', (_, a) => `COPY DEFAULT TO <${a}>`),
  u('INSERT DATA into B', (b) => `INSERT DATA { GRAPH <${b}> { <urn:b:x> <urn:p:value> "planted" } }`),
  u(
    'DELETE DATA from B',
    (b) => `DELETE DATA { GRAPH <${b}> { <urn:b:hidden0> <urn:p:value> "secret-of-B" } }`,
  ),
  u('INSERT DATA into the default graph', () => 'INSERT DATA { <urn:x> <urn:p:value> "planted" }'),
  u(
    'INSERT DATA into the bookkeeping graph',
    (b, a) =>
      `INSERT DATA { GRAPH <${REGISTRY}> { <urn:labld:triplestore:dataset:a> <urn:labld:triplestore:graph> <${b}> . <${a}> <urn:p> 1 } }`,
  ),
  u('DELETE WHERE GRAPH <B>', (b) => `DELETE WHERE { GRAPH <${b}> { ?s ?p ?o } }`),
  u('DELETE WHERE GRAPH ?g', () => 'DELETE WHERE { GRAPH ?g { ?s ?p ?o } }'),
  u('WITH <B> DELETE', (b) => `WITH <${b}> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }`),
  u(
    'DELETE GRAPH ?g WHERE GRAPH ?g',
    () => 'DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }',
  ),
  u(
    'INSERT into B from a bound ?g',
    (b) => `INSERT { GRAPH ?g { <urn:b:x> <urn:p:value> "planted" } } WHERE { BIND(<${b}> AS ?g) }`,
  ),
  u(
    'INSERT into A USING <B>',
    (b, a) => `INSERT { GRAPH <${a}> { ?s ?p ?o } } USING <${b}> WHERE { ?s ?p ?o }`,
  ),
  u(
    'INSERT into A WHERE GRAPH <B>',
    (b, a) => `INSERT { GRAPH <${a}> { ?s ?p ?o } } WHERE { GRAPH <${b}> { ?s ?p ?o } }`,
  ),
  u(
    'INSERT into A WHERE SERVICE',
    (_, a) => `INSERT { GRAPH <${a}> { ?s ?p ?o } } WHERE { SERVICE <http://localhost/sparql> { ?s ?p ?o } }`,
  ),
  u(
    'a good operation then DROP <B>',
    (b, a) => `INSERT DATA { GRAPH <${a}> { <urn:a:new> <urn:p:value> "new" } } ; DROP GRAPH <${b}>`,
  ),
  harmless(
    'INSERT into A WHERE GRAPH ?g bound to B',
    (b, a) =>
      `INSERT { GRAPH <${a}> { ?s <urn:p:copied> ?o } } WHERE { BIND(<${b}> AS ?g) GRAPH ?g { ?s ?p ?o } }`,
  ),
  harmless(
    'INSERT into A from the default graph',
    (_, a) =>
      `INSERT { GRAPH <${a}> { ?s <urn:p:copied> ?o } } WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?o), "secret")) }`,
  ),
];

const SECRET = 'secret-of-B';

export function escapeSuite(env: TripleStoreEnvironment): void {
  describe(`TripleStore escape suite (${env.name}): ${ATTEMPTS.length} attempts by dataset A`, () => {
    let ns: Namespace;
    let store: TripleStore;
    const a = datasetId('a');
    const b = datasetId('b');
    const ga = graphOf(a);
    const gb = graphOf(b);
    const bTriples = numbered(30, SECRET, 'urn:b:hidden');
    let refusals = 0;

    before(async () => {
      ns = await env.fresh();
      store = await ns.connect({ timeoutMs: 2000, maxResults: 100 });
      await store.replaceGraph(a, ga, turtle(numbered(30, 'public-of-A', 'urn:a:')));
      await store.replaceGraph(b, gb, turtle(bTriples));
    });
    after(async () => {
      await store.close();
      await ns.dispose();
    });

    const leaks = (result: QueryResult | undefined): boolean =>
      JSON.stringify(result ?? null).includes(SECRET) ||
      JSON.stringify(result ?? null).includes('urn:b:hidden1');

    for (const attempt of ATTEMPTS) {
      it(`${attempt.kind}: ${attempt.name}`, async () => {
        const text = attempt.text(gb, ga);
        let outcome: QueryResult | undefined;
        try {
          if (attempt.kind === 'query') outcome = await store.query(a, text);
          else await store.update(a, text);
        } catch (error) {
          assert.ok(error instanceof DomainError, `a DomainError, got ${String(error)}`);
          assert.ok(REFUSALS.has(error.kind), `${error.kind}: ${error.message}`);
          assert.ok(error.message.length > 10, 'the error says what was refused');
          refusals++;
          return;
        }
        assert.ok(!attempt.mustRefuse, `it ran: ${(JSON.stringify(outcome) ?? 'the update').slice(0, 300)}`);
        assert.ok(!leaks(outcome), `B's data leaked: ${(JSON.stringify(outcome) ?? '').slice(0, 300)}`);
      });
    }

    it('afterwards B is as loaded, A holds nothing of B, and the graphs are unchanged', async () => {
      assert.ok(refusals >= ATTEMPTS.filter((x) => x.mustRefuse).length);
      assert.deepEqual(await store.graphs(b), [gb]);
      assert.deepEqual(await store.graphs(a), [ga]);
      const inB = rows(await store.query(b, 'SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?s'));
      assert.equal(inB.length, 30);
      assert.ok(inB.every((r) => r.o === SECRET && r.s!.startsWith('urn:b:hidden')));
      assert.equal(count(await store.query(a, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 30);
      assert.equal(
        await store.query(a, `ASK { ?s ?p "${SECRET}" }`).then((r) => r.type === 'ask' && r.boolean),
        false,
      );
    });
  });
}
