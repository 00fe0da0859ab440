// RDF/XML writing: layout, escaping, and graphs RDF/XML cannot express.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { DomainError } from '../../lib/process/errors.ts';
import { parse, serialize } from '../../lib/rdf/index.ts';
import { splitForXml } from '../../lib/rdf/rdfxml.ts';
import { assertIsomorphic } from './support.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;
const s = namedNode('http://example.org/s');

describe('RDF/XML', () => {
  it('writes one rdf:Description per subject, in rdflib’s flat layout', async () => {
    const quads = [
      quad(
        s,
        namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        namedNode('http://example.org/T'),
      ),
      quad(s, namedNode('http://example.org/p'), blankNode('x')),
      quad(
        blankNode('x'),
        namedNode('http://other.org/v#q'),
        literal('1', namedNode('http://example.org/dt')),
      ),
      quad(blankNode('x'), namedNode('http://other.org/v#q'), literal('eins', 'de')),
    ];
    const expected = `<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF
   xmlns:ex="http://example.org/"
   xmlns:ns1="http://other.org/v#"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
>
  <rdf:Description rdf:about="http://example.org/s">
    <rdf:type rdf:resource="http://example.org/T"/>
    <ex:p rdf:nodeID="b0"/>
  </rdf:Description>
  <rdf:Description rdf:nodeID="b0">
    <ns1:q rdf:datatype="http://example.org/dt">1</ns1:q>
    <ns1:q xml:lang="de">eins</ns1:q>
  </rdf:Description>
</rdf:RDF>
`;
    assert.equal(await serialize(quads, 'xml', { prefixes: { ex: 'http://example.org/' } }), expected);
  });

  it('escapes markup, keeps CR and "]]>" intact', async () => {
    const value = 'a & b < c > d ]]> e\r\nf "g" \'h\'\tü😀';
    const quads = [quad(s, namedNode('http://example.org/p'), literal(value))];
    const xml = await serialize(quads, 'xml');
    assert.ok(xml.includes('a &amp; b &lt; c &gt; d ]]&gt; e&#13;\nf "g" \'h\'\tü😀'), xml);
    await assertIsomorphic(await parse(xml, 'xml'), quads, 'escaping');
  });

  it('splits predicates at the longest XML name that ends them', () => {
    assert.deepEqual(splitForXml('http://example.org/table-1-KraftKn'), [
      'http://example.org/',
      'table-1-KraftKn',
    ]);
    assert.deepEqual(splitForXml('http://ex.org/a#b.c'), ['http://ex.org/a#', 'b.c']);
    assert.deepEqual(splitForXml('urn:isbn:123abc'), ['urn:isbn:123', 'abc']);
    assert.equal(splitForXml('http://ex.org/p/1'), undefined);
    assert.equal(splitForXml('http://ex.org/p/'), undefined);
  });

  const refused: [string, RDF.Quad][] = [
    ['a predicate with no XML name', quad(s, namedNode('http://example.org/p/42'), literal('x'))],
    [
      'a syntax term as predicate',
      quad(s, namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#li'), literal('x')),
    ],
    ['a control character', quad(s, namedNode('http://example.org/p'), literal('bell\u0007'))],
    ['a non-character', quad(s, namedNode('http://example.org/p'), literal('\uFFFF'))],
  ];
  for (const [what, bad] of refused) {
    it(`refuses ${what} with a 422 naming return_type`, async () => {
      await assert.rejects(serialize([bad], 'xml'), (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'invalid');
        assert.equal(error.field, 'return_type');
        assert.match(error.message, /^return_type: the graph cannot be written as RDF\/XML: /);
        return true;
      });
    });
  }

  it('leaves control characters to the formats that can carry them', async () => {
    const quads = [quad(s, namedNode('http://example.org/p'), literal('bell\u0007 nul\u0000'))];
    for (const format of ['turtle', 'nt', 'trig', 'n3', 'json-ld', 'hext', 'longturtle'] as const) {
      await assertIsomorphic(await parse(await serialize(quads, format), format), quads, format);
    }
  });

  it('reports malformed XML as a 422 naming the field', async () => {
    await assert.rejects(
      parse('<rdf:RDF xmlns:rdf="x"><a>', 'xml', { field: 'shapes_url' }),
      (error: unknown) => {
        assert.ok(error instanceof DomainError && error.kind === 'invalid' && error.field === 'shapes_url');
        assert.match(error.message, /^shapes_url: could not parse the xml document: /);
        return true;
      },
    );
  });
});
