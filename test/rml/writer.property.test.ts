// The N-Triples/N-Quads byte writer (lib/rml/sink.ts over lib/byte-output.ts, issue 29) against
// the quads of the same run through the RDF/JS sink, which takes every object as its term
// string: for any cells — quotes, backslashes, unicode (lone surrogates too), line breaks,
// empty cells, numbers, cells long enough to cross 64 KB chunks — the file `labld rml` writes
// parses (strictly, by N3.js) to the same graph.
import assert from 'node:assert/strict';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import fc from '../support/fc.ts';
import { executeMapping, parseMapping, rdfjsSink } from '../../lib/rml/index.ts';
import { runMappingFile } from '../../lib/rml/run-file.ts';
import { tempDir } from '../support/temp.ts';
import { canonical } from './support.ts';

const COLUMNS = ['a', 'b', 'c'];

// Simple literals (the writer's own quoting), a language-tagged and a typed literal, a literal
// template, an IRI template over a cell, a class and a graph map: every kind of term a line holds.
const MAPPING = `@prefix rr: <http://www.w3.org/ns/r2rml#> .
@prefix rml: <http://semweb.mmlab.be/ns/rml#> .
@prefix ql: <http://semweb.mmlab.be/ns/ql#> .
@prefix ex: <http://example.com/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<http://example.com/base/TM> a rr:TriplesMap;
  rml:logicalSource [ rml:source "data.csv"; rml:referenceFormulation ql:CSV ];
  rr:subjectMap [ rr:template "http://example.com/row/{id}"; rr:class ex:Row ];
  rr:predicateObjectMap [ rr:predicate ex:a; rr:objectMap [ rml:reference "a" ] ];
  rr:predicateObjectMap [ rr:predicate ex:b; rr:objectMap [ rml:reference "b" ] ];
  rr:predicateObjectMap [ rr:predicate ex:c; rr:objectMap [ rml:reference "c" ]; rr:graph ex:g ];
  rr:predicateObjectMap [ rr:predicate ex:lang; rr:objectMap [ rml:reference "a"; rr:language "en" ] ];
  rr:predicateObjectMap [ rr:predicate ex:typed; rr:objectMap [ rml:reference "b"; rr:datatype xsd:string ] ];
  rr:predicateObjectMap [ rr:predicate ex:both; rr:objectMap [ rr:template "{a}|{c}"; rr:termType rr:Literal ] ];
  rr:predicateObjectMap [ rr:predicate ex:link; rr:objectMap [ rr:template "http://example.com/v/{c}" ] ] .
`;

const cell = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\r', '\r\n', ',', ' ', 'é', '😀', 'x', '\t'),
    maxLength: 8,
  }),
  fc.constantFrom('', '0', '-1.5', '1e5', '"quoted"', 'back\\slash', 'line\nbreak'),
  fc.double().map(String),
  // Long cells (quick to shrink): across chunk ends, and past what a chunk holds.
  fc
    .tuple(fc.constantFrom('é', 'a"b', 'x\\n', '😀'), fc.integer({ min: 3000, max: 12000 }))
    .map(([piece, times]) => piece.repeat(times)),
);

/** RFC 4180: every cell quoted, its quotes doubled. */
function csv(rows: string[][]): string {
  const line = (cells: string[]) => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');
  return `id,${COLUMNS.join(',')}\n${rows.map((cells, i) => `${i},${line(cells)}\n`).join('')}`;
}

test('the byte writer writes the graph the term strings make, for any cells', async () => {
  const dir = tempDir('labld-rml-writer-');
  const mappingPath = join(dir, 'mapping.ttl');
  writeFileSync(mappingPath, MAPPING);
  const mapping = parseMapping(MAPPING, { baseIri: `file://${dir}/` });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
      async (rows) => {
        writeFileSync(join(dir, 'data.csv'), csv(rows));
        const expected: RDF.Quad[] = [];
        await executeMapping(
          mapping,
          rdfjsSink((quad) => expected.push(quad)),
          { mappingDir: dir },
        );

        const outPath = join(dir, 'out.nq');
        const result = await runMappingFile(mappingPath, createWriteStream(outPath), { format: 'nq' });
        const written = readFileSync(outPath, 'utf8');
        const actual = new Parser({ format: 'N-Quads' }).parse(written);
        assert.equal(actual.length, result.triples);
        assert.equal(await canonical(actual), await canonical(expected));
      },
    ),
    { numRuns: 60 },
  );
});
