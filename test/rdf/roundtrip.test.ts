// Every seed fixture, parsed, written in every return_type and read back, is the same graph.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DataFactory } from 'n3';
import { RETURN_TYPES, parse, serialize, type RdfFormat } from '../../lib/rdf/index.ts';
import { assertIsomorphic, seedFixture, triplesOf } from './support.ts';

const FIXTURES: { path: string; format: RdfFormat; minTriples: number }[] = [
  { path: 'csvtocsvw/example2.ttl', format: 'turtle', minTriples: 40_000 },
  { path: 'csvtocsvw/example5.ttl', format: 'turtle', minTriples: 800 },
  { path: 'datapipeline/sample-joined.ttl', format: 'turtle', minTriples: 14 },
  { path: 'datapipeline/sample.csvw.json', format: 'json-ld', minTriples: 30 },
  // RDFConverter's joined graphs: Turtle despite the .rdf extension (relative IRIs).
  { path: 'rdfconverter/csvw-template-map.rdf', format: 'turtle', minTriples: 200 },
  { path: 'rdfconverter/catenax-batch-map.rdf', format: 'turtle', minTriples: 30 },
];

const PREFIXES = {
  csvw: 'http://www.w3.org/ns/csvw#',
  qudt: 'http://qudt.org/schema/qudt/',
  unit: 'http://qudt.org/vocab/unit/',
  prov: 'http://www.w3.org/ns/prov#',
  oa: 'http://www.w3.org/ns/oa#',
};

for (const fixture of FIXTURES) {
  describe(`round trip of ${fixture.path}`, async () => {
    const baseIRI = `https://example.org/seed/${fixture.path}`;
    const original = await parse(readFileSync(seedFixture(fixture.path), 'utf8'), fixture.format, {
      baseIRI,
    });

    it('parses', () => {
      assert.ok(original.length >= fixture.minTriples, `${original.length} triples`);
    });

    for (const returnType of RETURN_TYPES) {
      it(`through ${returnType}`, async () => {
        const text = await serialize(original, returnType, { prefixes: PREFIXES });
        const back = await parse(text, returnType, { baseIRI });
        await assertIsomorphic(back, original, returnType);
      });
    }
  });
}

describe('round trip of the RDF/XML form of a fixture', () => {
  it('reads RDF/XML written by the module, with a base', async () => {
    const path = 'rdfconverter/csvw-template-map.rdf';
    const baseIRI = `https://example.org/seed/${path}`;
    const original = await parse(readFileSync(seedFixture(path), 'utf8'), 'turtle', { baseIRI });
    const xml = await serialize(original, 'xml', { base: baseIRI });
    assert.match(xml, /xml:base="https:\/\/example.org\/seed\/rdfconverter\/csvw-template-map.rdf"/);
    assert.match(xml, /rdf:about="#SpecimenID"/);
    await assertIsomorphic(await parse(xml, 'xml', { baseIRI }), original, 'xml with base');
  });
});

describe('named graphs', () => {
  const { namedNode, literal, quad, blankNode } = DataFactory;
  const quads = [
    quad(namedNode('http://e/s'), namedNode('http://e/p'), literal('default')),
    quad(namedNode('http://e/s'), namedNode('http://e/p'), literal('named'), namedNode('http://e/g')),
    quad(blankNode('x'), namedNode('http://e/p'), blankNode('y'), blankNode('g')),
  ];

  for (const format of ['trig', 'nquads', 'hext', 'json-ld'] as const) {
    it(`survive ${format}`, async () => {
      await assertIsomorphic(await parse(await serialize(quads, format), format), quads, format);
    });
  }

  for (const format of ['turtle', 'longturtle', 'n3', 'nt', 'xml'] as const) {
    it(`are merged into the triples of ${format}`, async () => {
      const back = await parse(await serialize(quads, format), format);
      await assertIsomorphic(back, triplesOf(quads, DataFactory), format);
    });
  }
});
