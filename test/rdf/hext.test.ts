// Hextuples: line shape as rdflib writes it, and reading (also the older datatype spelling).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { DomainError } from '../../lib/process/errors.ts';
import { parse, serialize } from '../../lib/rdf/index.ts';
import { assertIsomorphic } from './support.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;
const s = namedNode('http://example.org/s');
const p = namedNode('http://example.org/p');

async function line(object: RDF.Quad_Object, graph?: RDF.Quad_Graph): Promise<string> {
  return serialize([quad(s, p, object, graph)], 'hext');
}

describe('hext lines', () => {
  it('writes an IRI object as globalId', async () => {
    assert.equal(
      await line(namedNode('http://example.org/o')),
      '["http://example.org/s", "http://example.org/p", "http://example.org/o", "globalId", "", ""]\n',
    );
  });

  it('writes a blank node as _:label with localId', async () => {
    const text = await serialize([quad(blankNode('a'), p, blankNode('b'))], 'hext');
    assert.equal(text, '["_:a", "http://example.org/p", "_:b", "localId", "", ""]\n');
  });

  it('writes a typed literal with its datatype and a plain one as xsd:string', async () => {
    assert.equal(
      await line(literal('42', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
      '["http://example.org/s", "http://example.org/p", "42", "http://www.w3.org/2001/XMLSchema#integer", "", ""]\n',
    );
    assert.equal(
      await line(literal('x')),
      '["http://example.org/s", "http://example.org/p", "x", "http://www.w3.org/2001/XMLSchema#string", "", ""]\n',
    );
  });

  it('writes a language string as rdf:langString with its tag', async () => {
    assert.equal(
      await line(literal('Prüfung', 'de')),
      '["http://example.org/s", "http://example.org/p", "Pr\\u00fcfung", ' +
        '"http://www.w3.org/1999/02/22-rdf-syntax-ns#langString", "de", ""]\n',
    );
  });

  it('writes the graph name last, "" for the default graph', async () => {
    assert.equal(
      await line(literal('x'), namedNode('http://example.org/g')),
      '["http://example.org/s", "http://example.org/p", "x", "http://www.w3.org/2001/XMLSchema#string", "", ' +
        '"http://example.org/g"]\n',
    );
  });

  it('escapes like Python’s json.dumps: short escapes, \\uXXXX for the rest', async () => {
    const text = await line(literal('a"b\\c\nd\u0001é😀\u007f'));
    assert.equal(text.split(', ')[2], '"a\\"b\\\\c\\nd\\u0001\\u00e9\\ud83d\\ude00\\u007f"');
    assert.match(text, /^[\x20-\x7e]*\n$/); // pure ASCII
  });
});

describe('hext reading', () => {
  it('reads every kind of line back', async () => {
    const quads = [
      quad(s, p, namedNode('http://example.org/o')),
      quad(blankNode('a'), p, blankNode('b'), blankNode('g')),
      quad(s, p, literal('x', 'en-gb'), namedNode('http://example.org/g')),
      quad(s, p, literal('1.5', namedNode('http://www.w3.org/2001/XMLSchema#decimal'))),
    ];
    await assertIsomorphic(await parse(await serialize(quads, 'hext'), 'hext'), quads, 'hext');
  });

  it('accepts the older rdf:namedNode / rdf:blankNode spelling and blank lines', async () => {
    const text =
      '["http://e/s", "http://e/p", "http://e/o", "http://www.w3.org/1999/02/22-rdf-syntax-ns#namedNode", "", ""]\n\n' +
      '["http://e/s", "http://e/p", "_:x", "http://www.w3.org/1999/02/22-rdf-syntax-ns#blankNode", "", ""]\n';
    const quads = await parse(text, 'hext');
    assert.deepEqual(
      quads.map((q) => q.object.termType),
      ['NamedNode', 'BlankNode'],
    );
  });

  it('keeps blank nodes of different documents apart', async () => {
    const text = '["_:x", "http://e/p", "o", "http://www.w3.org/2001/XMLSchema#string", "", ""]\n';
    const [a] = await parse(text, 'hext');
    const [b] = await parse(text, 'hext');
    assert.notEqual(a!.subject.value, b!.subject.value);
  });

  it('reports a bad line by number as a 422', async () => {
    const text =
      '["http://e/s", "http://e/p", "o", "http://www.w3.org/2001/XMLSchema#string", "", ""]\n["too", "short"]\n';
    await assert.rejects(parse(text, 'hext', { field: 'rdf_url' }), (error: unknown) => {
      assert.ok(error instanceof DomainError && error.kind === 'invalid' && error.field === 'rdf_url');
      assert.match(
        error.message,
        /^rdf_url: could not parse the hext document: line 2: expected an array of six strings/,
      );
      return true;
    });
  });
});
