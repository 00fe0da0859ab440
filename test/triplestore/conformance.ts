// The TripleStore contract suite, written against contract.ts only; each implementation's
// test file supplies an environment (a temporary data directory; a Fuseki server).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  freshStores,
  type TripleStoreEnvironment,
  count,
  datasetId,
  graphOf,
  numbered,
  refused,
  rows,
  turtle,
} from './support.ts';

const SAMPLE = `@prefix co: <https://w3id.org/pmd/co/> .
@prefix qudt: <http://qudt.org/schema/qudt/> .
<urn:m:1> a co:Measurement ; qudt:value 2.5 ; qudt:unit <http://qudt.org/vocab/unit/KiloN> .
<urn:m:2> a co:Measurement ; qudt:value 1.5 ; qudt:unit <http://qudt.org/vocab/unit/KiloN> .`;

export function tripleStoreConformance(env: TripleStoreEnvironment): void {
  describe(`TripleStore conformance (${env.name})`, () => {
    const open = freshStores(env);

    it('a dataset never loaded has no graphs and every query answers the empty result', async () => {
      const s = await open();
      const ds = datasetId('never');
      assert.deepEqual(await s.graphs(ds), []);
      assert.deepEqual(rows(await s.query(ds, 'SELECT * WHERE { ?s ?p ?o }')), []);
      assert.deepEqual(rows(await s.query(ds, 'SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')), []);
      assert.deepEqual(await s.query(ds, 'ASK { ?s ?p ?o }'), { type: 'ask', boolean: false });
      const graph = await s.query(ds, 'CONSTRUCT WHERE { ?s ?p ?o }');
      assert.equal(graph.type === 'graph' && graph.triples, 0);
    });

    it('loads a graph per resource; the default graph is their union, GRAPH ?g names each', async () => {
      const s = await open();
      const ds = datasetId('ds');
      const [g1, g2] = [graphOf(ds, 'r1'), graphOf(ds, 'r2', 'b.nt')];
      assert.deepEqual(await s.replaceGraph(ds, g1, turtle(SAMPLE)), { triples: 6 });
      assert.deepEqual(
        await s.replaceGraph(ds, g2, turtle('<urn:m:3> <urn:p:note> "third" .', 'application/n-triples')),
        { triples: 1 },
      );
      assert.deepEqual(await s.graphs(ds), [g1, g2].sort());
      assert.equal(count(await s.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 7);
      const perGraph = rows(
        await s.query(
          ds,
          'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g',
        ),
      );
      assert.deepEqual(
        perGraph,
        [
          { g: g1, n: '6' },
          { g: g2, n: '1' },
        ].sort((a, b) => a.g.localeCompare(b.g)),
      );
      const values = rows(
        await s.query(
          ds,
          'PREFIX qudt: <http://qudt.org/schema/qudt/> SELECT ?m WHERE { ?m qudt:value ?v FILTER(?v > 2) }',
        ),
      );
      assert.deepEqual(values, [{ m: 'urn:m:1' }]);
    });

    it("FROM and FROM NAMED choose among the dataset's own graphs", async () => {
      const s = await open();
      const ds = datasetId('from');
      const [g1, g2] = [graphOf(ds, 'r1'), graphOf(ds, 'r2')];
      await s.replaceGraph(ds, g1, turtle(numbered(3, 'one')));
      await s.replaceGraph(ds, g2, turtle(numbered(5, 'two', 'urn:y:')));
      assert.equal(count(await s.query(ds, `SELECT (COUNT(*) AS ?n) FROM <${g2}> WHERE { ?s ?p ?o }`)), 5);
      const named = rows(
        await s.query(ds, `SELECT DISTINCT ?g FROM NAMED <${g1}> WHERE { GRAPH ?g { ?s ?p ?o } }`),
      );
      assert.deepEqual(named, [{ g: g1 }]);
      // With FROM NAMED only, the default graph is empty (SPARQL 1.1 §13.2).
      assert.equal(
        count(await s.query(ds, `SELECT (COUNT(*) AS ?n) FROM NAMED <${g1}> WHERE { ?s ?p ?o }`)),
        0,
      );
    });

    it('replacing a graph replaces its triples; invalid RDF changes nothing', async () => {
      const s = await open();
      const ds = datasetId('replace');
      const g = graphOf(ds);
      await s.replaceGraph(ds, g, turtle(numbered(4, 'old')));
      assert.deepEqual(await s.replaceGraph(ds, g, turtle(numbered(2, 'new'))), { triples: 2 });
      assert.deepEqual(rows(await s.query(ds, 'SELECT DISTINCT ?o WHERE { ?s ?p ?o }')), [{ o: 'new' }]);
      await refused(s.replaceGraph(ds, g, turtle('<urn:a> <urn:b> "unterminated .')), 'invalid', 'body');
      assert.deepEqual(rows(await s.query(ds, 'SELECT DISTINCT ?o WHERE { ?s ?p ?o }')), [{ o: 'new' }]);
      assert.equal(count(await s.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 2);
      assert.deepEqual(await s.graphs(ds), [g]);
    });

    it('resolves relative IRIs against the graph, or the base given', async () => {
      const s = await open();
      const ds = datasetId('base');
      const [g1, g2] = [graphOf(ds, 'r1', 'd.ttl'), graphOf(ds, 'r2', 'e.ttl')];
      await s.replaceGraph(ds, g1, turtle('<#it> <urn:ex:name> "it" .'));
      await s.replaceGraph(ds, g2, {
        ...turtle('<other> <urn:ex:name> "other" .'),
        baseIri: 'https://base.test/x/',
      });
      assert.deepEqual(rows(await s.query(ds, 'SELECT ?s WHERE { ?s <urn:ex:name> "it" }')), [
        { s: `${g1}#it` },
      ]);
      assert.deepEqual(rows(await s.query(ds, 'SELECT ?s WHERE { ?s <urn:ex:name> "other" }')), [
        { s: 'https://base.test/x/other' },
      ]);
    });

    it('a graph belongs to one dataset; bad ids, IRIs and formats are refused by field', async () => {
      const s = await open();
      const [a, b] = [datasetId('a'), datasetId('b')];
      const g = graphOf(a);
      await s.replaceGraph(a, g, turtle(numbered(1, 'a')));
      await refused(s.replaceGraph(b, g, turtle(numbered(1, 'b'))), 'conflict', 'graph');
      assert.deepEqual(rows(await s.query(a, 'SELECT ?o WHERE { ?s ?p ?o }')), [{ o: 'a' }]);
      await refused(s.replaceGraph('../etc', g, turtle('')), 'invalid', 'dataset_id');
      await refused(s.query('a b', 'ASK {}'), 'invalid', 'dataset_id');
      await refused(s.replaceGraph(a, 'not an iri', turtle('')), 'invalid', 'graph');
      await refused(s.replaceGraph(a, 'urn:labld:triplestore:datasets', turtle('')), 'invalid', 'graph');
      await refused(
        s.replaceGraph(a, g, {
          format: 'application/rdf+xml' as 'text/turtle',
          body: Readable.from(['<x/>']),
        }),
        'unsupported',
        'format',
      );
      await refused(s.query(a, 'SELEKT * WHERE { ?s ?p ?o }'), 'invalid', 'query');
      await refused(s.query(a, 'INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> 1 } }'), 'invalid', 'query');
      await refused(s.update(a, 'SELECT * WHERE { ?s ?p ?o }'), 'invalid', 'update');
    });

    it('drops a graph, then the whole dataset; other datasets stay', async () => {
      const s = await open();
      const [a, b] = [datasetId('a'), datasetId('b')];
      const [a1, a2, b1] = [graphOf(a, 'r1'), graphOf(a, 'r2'), graphOf(b, 'r1')];
      await s.replaceGraph(a, a1, turtle(numbered(2, 'a1')));
      await s.replaceGraph(a, a2, turtle(numbered(3, 'a2')));
      await s.replaceGraph(b, b1, turtle(numbered(4, 'b1')));
      assert.equal(await s.dropGraph(a, a1), true);
      assert.equal(await s.dropGraph(a, a1), false);
      assert.equal(await s.dropGraph(a, b1), false);
      assert.deepEqual(await s.graphs(a), [a2]);
      assert.equal(count(await s.query(a, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 3);
      await s.dropDataset(a);
      assert.deepEqual(await s.graphs(a), []);
      assert.equal(count(await s.query(a, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 0);
      assert.equal(count(await s.query(b, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 4);
      // A dropped graph's IRI is free again.
      await s.replaceGraph(b, a1, turtle(numbered(1, 'moved')));
      assert.deepEqual(await s.graphs(b), [a1, b1].sort());
    });

    it("updates change the dataset's named graphs: INSERT DATA, WITH … DELETE/INSERT, CLEAR", async () => {
      const s = await open();
      const ds = datasetId('upd');
      const [g1, g2] = [graphOf(ds, 'r1'), graphOf(ds, 'r2')];
      await s.replaceGraph(ds, g1, turtle(numbered(2, 'v1')));
      await s.replaceGraph(ds, g2, turtle(numbered(1, 'other', 'urn:z:')));
      await s.update(ds, `INSERT DATA { GRAPH <${g1}> { <urn:x:9> <urn:p:value> "v1" } }`);
      assert.equal(count(await s.query(ds, `SELECT (COUNT(*) AS ?n) FROM <${g1}> WHERE { ?s ?p ?o }`)), 3);
      await s.update(
        ds,
        `WITH <${g1}> DELETE { ?s <urn:p:value> "v1" } INSERT { ?s <urn:p:value> "v2" } WHERE { ?s <urn:p:value> "v1" }`,
      );
      assert.deepEqual(rows(await s.query(ds, `SELECT DISTINCT ?o FROM <${g1}> WHERE { ?s ?p ?o }`)), [
        { o: 'v2' },
      ]);
      assert.deepEqual(rows(await s.query(ds, `SELECT DISTINCT ?o FROM <${g2}> WHERE { ?s ?p ?o }`)), [
        { o: 'other' },
      ]);
      await s.update(ds, `CLEAR GRAPH <${g2}>`);
      assert.equal(count(await s.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 3);
      await refused(s.update(ds, 'INSERT DATA { <urn:a> <urn:b> 1 }'), 'forbidden', 'update');
    });

    it('CONSTRUCT and DESCRIBE answer N-Triples with their count', async () => {
      const s = await open();
      const ds = datasetId('graph');
      await s.replaceGraph(ds, graphOf(ds), turtle(SAMPLE));
      const built = await s.query(
        ds,
        'CONSTRUCT { ?m <urn:p:v> ?v } WHERE { ?m <http://qudt.org/schema/qudt/value> ?v }',
      );
      assert.equal(built.type, 'graph');
      assert.equal(built.type === 'graph' && built.triples, 2);
      assert.match(built.type === 'graph' ? built.text : '', /<urn:m:1> <urn:p:v> "2.5"/);
      const described = await s.query(ds, 'DESCRIBE <urn:m:2>');
      assert.equal(described.type === 'graph' && described.triples, 3);
    });

    it('more results than the limit is too-large; a LIMIT under it answers', async () => {
      const s = await open({ maxResults: 10 });
      const ds = datasetId('limit');
      await s.replaceGraph(ds, graphOf(ds), turtle(numbered(10, 'x')));
      assert.equal(rows(await s.query(ds, 'SELECT * WHERE { ?s ?p ?o }')).length, 10);
      const error = await refused(
        s.query(ds, 'SELECT * WHERE { ?s ?p ?o . ?t ?q ?r }'),
        'too-large',
        'query',
      );
      assert.match(error.message, /10/);
      assert.equal(rows(await s.query(ds, 'SELECT * WHERE { ?s ?p ?o . ?t ?q ?r } LIMIT 7')).length, 7);
      // CONSTRUCT answers a set: distinct triples count, here pairs of subjects.
      await refused(
        s.query(ds, 'CONSTRUCT { ?s <urn:p:pair> ?t } WHERE { ?s ?p ?o . ?t ?q ?r }'),
        'too-large',
        'query',
      );
    });

    it("a result in the type asked: the store's own text, its rows and triples counted on it", async () => {
      const s = await open({ maxResults: 10 });
      const ds = datasetId('typed');
      await s.replaceGraph(ds, graphOf(ds), turtle(numbered(10, 'a, b; c. d')));
      for (const [table, start] of [
        ['text/csv', /^s,o\r\n/],
        ['text/tab-separated-values', /^\?s\t\?o\n/],
        ['application/sparql-results+xml', /<sparql /],
        ['application/json', /"bindings"/],
      ] as const) {
        const result = await s.query(ds, 'SELECT ?s ?o WHERE { ?s ?p ?o }', { formats: { table } });
        assert.ok(result.type === 'select', table);
        assert.deepEqual([result.mediaType, result.rows], [table, 10]);
        assert.match(result.text, start);
        const all = 'SELECT * WHERE { ?s ?p ?o . ?t ?q ?r }';
        await refused(s.query(ds, all, { formats: { table } }), 'too-large', 'query');
      }
      const graph = await s.query(ds, 'CONSTRUCT WHERE { ?s ?p ?o }', { formats: { graph: 'text/turtle' } });
      assert.ok(graph.type === 'graph');
      // Turtle, or N-Triples for the gateway to write it from (a server's Turtle nests: not counted).
      assert.ok(['text/turtle', 'application/n-triples'].includes(graph.mediaType), graph.mediaType);
      assert.equal(graph.triples, 10);
    });

    it('a query past the time limit is upstream-timeout, and the store answers the next one', async () => {
      const s = await open({ timeoutMs: 1500 });
      const ds = datasetId('slow');
      await s.replaceGraph(ds, graphOf(ds), turtle(numbered(60, 'x')));
      const started = Date.now();
      await refused(
        s.query(
          ds,
          'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }',
        ),
        'upstream-timeout',
        'query',
      );
      assert.ok(Date.now() - started < 10_000, 'answered soon after the limit');
      assert.equal(count(await s.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 60);
    });

    it('queries during repeated replaces see the old graph or the new one, never empty or mixed', async () => {
      const s = await open();
      const ds = datasetId('atomic');
      const g = graphOf(ds);
      const size = 5_000;
      await s.replaceGraph(ds, g, turtle(numbered(size, 'v0')));
      let replacing = true;
      const seen: string[] = [];
      const reader = (async () => {
        while (replacing) {
          const [row] = rows(
            await s.query(
              ds,
              'SELECT (COUNT(*) AS ?n) (COUNT(DISTINCT ?o) AS ?versions) (MIN(?o) AS ?v) WHERE { ?s ?p ?o }',
            ),
          );
          assert.deepEqual(
            [row!.n, row!.versions],
            [String(size), '1'],
            `a query saw ${JSON.stringify(row)}`,
          );
          seen.push(row!.v!);
        }
      })();
      for (let version = 1; version <= 4; version++) {
        await s.replaceGraph(ds, g, turtle(numbered(size, `v${version}`)));
      }
      replacing = false;
      await reader;
      assert.ok(seen.length > 0);
      assert.deepEqual(rows(await s.query(ds, 'SELECT DISTINCT ?o WHERE { ?s ?p ?o }')), [{ o: 'v4' }]);
    });
  });
}
