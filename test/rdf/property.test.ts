// Property: any small dataset survives every format (named graphs only where the format has
// them). Terms include shared and cyclic blank nodes, typed and language literals, quotes,
// backslashes, CR/LF, "]]>", and characters outside the BMP.
import { describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import fc from '../support/fc.ts';
import { DataFactory } from 'n3';
import { FORMATS, RETURN_TYPES, parse, serialize, type RdfFormat } from '../../lib/rdf/index.ts';
import { assertIsomorphic, triplesOf } from './support.ts';

const { namedNode, blankNode, literal, quad, defaultGraph } = DataFactory;
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

const namespaces = ['http://example.org/', 'https://example.com/a/b#', 'urn:x-test:', 'http://ex.org/ü/'];
// Local names start with a letter for predicates (RDF/XML needs an XML name there).
const nameStart = fc.constantFrom(...'abcxyzABQé日'.split(''));
const nameRest = fc.string({ unit: fc.constantFrom(...'az09_-.é日'.split('')), maxLength: 6 });
const name = fc.tuple(nameStart, nameRest).map(([a, b]) => (a + b).replace(/\.+$/, ''));
const anyLocal = fc.oneof(name, fc.stringMatching(/^[0-9]{1,4}$/), fc.constant(''));

const iri = fc.tuple(fc.constantFrom(...namespaces), anyLocal).map(([ns, local]) => namedNode(ns + local));
const predicate = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(fc.constantFrom(...namespaces), name).map(([ns, l]) => namedNode(ns + l)),
  },
  { weight: 1, arbitrary: fc.constant(namedNode(RDF_TYPE)) },
);
// Few labels, so blank nodes get shared, chained and cyclic.
const blank = fc.constantFrom('b0', 'b1', 'b2', 'b3').map((label) => blankNode(label));

// Text XML 1.0 can hold (other control characters are tested separately: RDF/XML refuses them).
const xmlChar = (c: string): boolean => /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u.test(c);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => [...s].filter(xmlChar).join('')),
  fc.constantFrom(
    '"',
    "'",
    '\\',
    '\n',
    '\r\n',
    '\r',
    '\t',
    ']]>',
    '<a>&amp;',
    '""" \'\'\'',
    '😀 🜂',
    ' ',
    '',
    'a\\"b',
  ),
);
const language = fc.constantFrom('en', 'de-DE', 'zh-Hant-TW', 'x-private');
const datatype = fc.constantFrom(
  `${XSD}string`,
  `${XSD}integer`,
  `${XSD}decimal`,
  `${XSD}double`,
  `${XSD}boolean`,
  `${XSD}dateTime`,
  'http://example.org/dt#custom',
);
const numeric = fc.constantFrom(
  '0',
  '01',
  '-5',
  '1.50',
  '.5',
  '1e3',
  '1.0E-2',
  'true',
  'false',
  'NaN',
  'INF',
);
const lit = fc.oneof(
  text.map((v) => literal(v)),
  fc.tuple(text, language).map(([v, l]) => literal(v, l)),
  fc.tuple(fc.oneof(text, numeric), datatype).map(([v, d]) => literal(v, namedNode(d))),
);

const graph = fc.oneof(
  { weight: 6, arbitrary: fc.constant(defaultGraph()) },
  { weight: 2, arbitrary: fc.constantFrom(namedNode('http://example.org/g1'), namedNode('urn:x-test:g2')) },
  { weight: 1, arbitrary: fc.constant(blankNode('g')) },
);

const dataset = fc.array(
  fc
    .tuple(fc.oneof(iri, blank), predicate, fc.oneof(iri, blank, lit, lit), graph)
    .map(([s, p, o, g]) => quad(s, p, o, g) as RDF.Quad),
  { minLength: 1, maxLength: 12 },
);

// Bases under which some generated IRIs fall, so some are written relative.
const base = fc.option(
  fc.constantFrom('http://example.org/', 'http://example.org/doc', 'https://example.com/a/b#x'),
);

const PREFIXES = { ex: 'http://example.org/', exc: 'https://example.com/a/b#', '': 'urn:x-test:' };

describe('every format round-trips random datasets', () => {
  for (const format of [...RETURN_TYPES, 'nquads'] as RdfFormat[]) {
    it(format, async () => {
      await fc.assert(
        fc.asyncProperty(dataset, fc.boolean(), base, async (quads, withPrefixes, baseIRI) => {
          const options = {
            ...(withPrefixes ? { prefixes: PREFIXES } : {}),
            ...(baseIRI ? { base: baseIRI } : {}),
          };
          const written = await serialize(quads, format, options);
          // The reader gets another base: what the text says must be enough.
          const back = await parse(written, format, { baseIRI: 'http://elsewhere.test/' });
          const expected = FORMATS[format].quads ? quads : triplesOf(quads, DataFactory);
          await assertIsomorphic(back, expected, `${format}:\n${written}`);
        }),
        { numRuns: 150 },
      );
    });
  }
});
