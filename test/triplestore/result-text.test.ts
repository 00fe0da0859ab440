// Rows and triples counted on a result's text, never parsed (lib/triplestore/result-text.ts):
// against oxigraph's own count for any graph — literals with quotes, line breaks, `.`, `,`, `;`,
// `<` and `#`, bare numbers such as `.5` and `1.0E0`, blank nodes, triple terms — in every type
// the embedded store writes; and against hand-written texts in the shapes Jena (Fuseki) writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import oxigraph from 'oxigraph';
import fc from '../support/fc.ts';
import {
  JSON_LD,
  NTRIPLES,
  RESULT_TYPES,
  TURTLE,
  countRows,
  countTriples,
  sameText,
  tableFormat,
  tsvInFull,
} from '../../lib/triplestore/result-text.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const { namedNode, blankNode, literal, triple } = oxigraph;

const text = fc.string({
  unit: fc.constantFrom(
    'a',
    ' ',
    '.',
    ',',
    ';',
    '"',
    "'",
    '\n',
    '\r',
    '\t',
    '<',
    '>',
    '#',
    '\\',
    'é',
    '_:',
    '{',
    '}',
    '[',
    ']',
  ),
});
const number = fc.constantFrom(
  ['.5', 'decimal'],
  ['2.5', 'decimal'],
  ['-3', 'integer'],
  ['1.0E0', 'double'],
  ['1e-7', 'double'],
  ['true', 'boolean'],
  ['5.', 'decimal'],
);
const iri = fc.integer({ min: 0, max: 5 }).map((i) => namedNode(`http://example.org/x${i}#a.b`));
const bnode = fc.integer({ min: 0, max: 3 }).map((i) => blankNode(`b${i}`));
const object = fc.oneof(
  iri,
  bnode,
  text.map((value) => literal(value)),
  fc.tuple(text, fc.constantFrom('en', 'de-CH')).map(([value, lang]) => literal(value, lang)),
  number.map(([value, type]) => literal(value, namedNode(`${XSD}${type}`))),
  fc.tuple(iri, iri, iri).map(([s, p, o]) => triple(s, p, o)),
);
const graph = fc.array(fc.tuple(fc.oneof(iri, bnode), iri, object), { maxLength: 30 });

test("oxigraph's every result type: rows and triples as oxigraph counts them", () => {
  fc.assert(
    fc.property(graph, (triples) => {
      const store = new oxigraph.Store();
      for (const [s, p, o] of triples) store.add(oxigraph.quad(s, p, o));
      const size = store.size;
      const construct = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }';
      // oxigraph writes no JSON-LD for RDF 1.2 triple terms (it refuses).
      const terms = triples.some(([, , o]) => o.termType === 'Quad');
      for (const format of terms ? [NTRIPLES, TURTLE] : [NTRIPLES, TURTLE, JSON_LD]) {
        const written = store.query(construct, { results_format: format }) as string;
        assert.equal(countTriples(written, format), size, `${format}:\n${written}`);
      }
      for (const format of Object.values(RESULT_TYPES)) {
        const written = store.query('SELECT * WHERE { ?s ?p ?o }', { results_format: format }) as string;
        assert.equal(countRows(written, format), size, `${format}:\n${written}`);
        const none = store.query('SELECT * WHERE { ?s ?p ?o } LIMIT 0', { results_format: format }) as string;
        assert.equal(countRows(none, format), 0, `${format}, no rows:\n${none}`);
      }
    }),
  );
});

test("Jena's shapes: pretty JSON, indented XML, CSV with quoted line breaks, N-Triples with a comment", () => {
  const json = `{ "head": { "vars": [ "s" , "o" ] } ,
  "results": {
    "bindings": [
      { "s": { "type": "uri" , "value": "http://ex.org/a" } , "o": { "type": "literal" , "value": "{ \\"x\\": [1] }" } } ,
      { "s": { "type": "bnode" , "value": "b0" } }
    ]
  }
}
`;
  assert.equal(countRows(json, RESULT_TYPES.json), 2);
  const xml = `<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
  <head>
    <variable name="s"/>
  </head>
  <results>
    <result>
      <binding name="s"><literal>&lt;result&gt;</literal></binding>
    </result>
  </results>
</sparql>
`;
  assert.equal(countRows(xml, RESULT_TYPES.xml), 1);
  assert.equal(
    countRows('s,o\r\nhttp://ex.org/a,"two\r\nlines, ""quoted"""\r\n_:b0,\r\n', RESULT_TYPES.csv),
    2,
  );
  assert.equal(countRows('s,o\r\n', RESULT_TYPES.csv), 0);
  assert.equal(countRows('?s\t?o\n<http://ex.org/a>\t"x\\ny"\n', RESULT_TYPES.tsv), 1);
  assert.equal(countTriples('# a comment\n<urn:a> <urn:p> "x" .\n\n<urn:b> <urn:p> "y" .', NTRIPLES), 2);
});

test('the SPARQL results format a store writes for each type asked, aliases as the same text', () => {
  assert.equal(tableFormat(undefined), RESULT_TYPES.json);
  assert.equal(tableFormat('application/json'), RESULT_TYPES.json);
  assert.equal(tableFormat('application/xml'), RESULT_TYPES.xml);
  assert.equal(tableFormat('text/csv'), RESULT_TYPES.csv);
  assert.ok(sameText('application/json', RESULT_TYPES.json));
  assert.ok(!sameText('text/csv', RESULT_TYPES.tsv));
});

test("oxigraph's TSV with its bare numbers written in full is labld's TSV writer's text", async () => {
  const { renderResult } = await import('../../lib/triplestore/results.ts');
  await fc.assert(
    fc.asyncProperty(graph, async (triples) => {
      const store = new oxigraph.Store();
      // labld's writer had no form for an RDF 1.2 triple term (it wrote `[object Object]`).
      for (const [s, p, o] of triples) if (o.termType !== 'Quad') store.add(oxigraph.quad(s, p, o));
      const select = 'SELECT * WHERE { ?s ?p ?o }';
      const json = store.query(select, { results_format: RESULT_TYPES.json }) as string;
      const ours = await renderResult(
        { type: 'select', rows: store.size, mediaType: RESULT_TYPES.json, text: json },
        RESULT_TYPES.tsv,
      );
      const tsv = store.query(select, { results_format: RESULT_TYPES.tsv }) as string;
      assert.equal(tsvInFull(tsv), ours.body);
    }),
  );
  assert.equal(tsvInFull('?n\n1.5\n'), '?n\n"1.5"^^<http://www.w3.org/2001/XMLSchema#decimal>\n');
});
