// Test support for the RML suites: a lenient N-Quads reader (peer expectations contain IRIs
// with raw spaces, which strict parsers refuse) and canonical N-Quads via lib/rdf.
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { canonicalNQuads } from '../../lib/rdf/index.ts';
import { parseTerm } from '../../lib/rml/sink.ts';

const TERM = String.raw`(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?)`;
const LINE = new RegExp(String.raw`^\s*${TERM}\s+${TERM}\s+${TERM}(?:\s+${TERM})?\s*\.\s*$`);

/** Reads N-Triples / N-Quads line by line; comment and blank lines are skipped. */
export function readNQuads(text: string): RDF.Quad[] {
  const quads: RDF.Quad[] = [];
  for (const [n, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`N-Quads line ${n + 1} not understood: ${line}`);
    quads.push(
      DataFactory.quad(
        parseTerm(m[1]!) as RDF.Quad_Subject,
        parseTerm(m[2]!) as RDF.Quad_Predicate,
        parseTerm(m[3]!) as RDF.Quad_Object,
        m[4] ? (parseTerm(m[4]) as RDF.Quad_Graph) : DataFactory.defaultGraph(),
      ),
    );
  }
  return quads;
}

/** Canonical N-Quads (lib/rdf's RDFC-1.0 of the distinct quads). */
export async function canonical(input: RDF.Quad[]): Promise<string> {
  // Some producers (the YARRRML parser) leave the graph of default-graph quads undefined.
  const quads = input.map((q) => {
    if (!q.subject || !q.predicate || !q.object)
      throw new Error(
        `incomplete quad: ${String(q.subject?.value)} ${String(q.predicate?.value)} ${String(q.object?.value)}`,
      );
    return q.graph ? q : DataFactory.quad(q.subject, q.predicate, q.object, DataFactory.defaultGraph());
  });
  return canonicalNQuads(quads);
}

/** Expected output of a peer test: N-Quads (lenient reader) or Turtle (N3.js). */
export function readExpected(text: string, fileName: string, baseIri: string): RDF.Quad[] {
  if (/\.(nq|nt)$/.test(fileName)) return readNQuads(text);
  return new Parser({ baseIRI: baseIri }).parse(text);
}
