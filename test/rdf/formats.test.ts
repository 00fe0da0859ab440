import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../lib/process/errors.ts';
import {
  FORMATS,
  RETURN_TYPES,
  formatFromContentType,
  formatFromFileName,
  guessFormat,
  isReturnType,
  returnTypeInfo,
  serialize,
} from '../../lib/rdf/index.ts';

describe('return_type table', () => {
  it('lists exactly the spec values', () => {
    assert.deepEqual([...RETURN_TYPES].sort(), [
      'hext',
      'json-ld',
      'longturtle',
      'n3',
      'nt',
      'trig',
      'turtle',
      'xml',
    ]);
  });

  it('gives each return_type its content type and download extension', () => {
    const table = Object.fromEntries(
      RETURN_TYPES.map((t) => [t, [returnTypeInfo(t).contentType, returnTypeInfo(t).extension]]),
    );
    assert.deepEqual(table, {
      'json-ld': ['application/ld+json', '.jsonld'],
      n3: ['text/n3', '.n3'],
      nt: ['application/n-triples', '.nt'],
      hext: ['application/hex+x-ndjson', '.hext'],
      trig: ['application/trig', '.trig'],
      turtle: ['text/turtle', '.ttl'],
      longturtle: ['text/turtle', '.ttl'],
      xml: ['application/rdf+xml', '.rdf'],
    });
  });

  it('keeps the seed services’ other extensions as alternatives', () => {
    assert.ok(FORMATS['json-ld'].extensions.includes('.json'));
    assert.ok(FORMATS.xml.extensions.includes('.xml'));
    assert.equal(FORMATS.nquads.contentType, 'application/n-quads');
  });

  it('says which formats keep named graphs', () => {
    const quadFormats = Object.values(FORMATS)
      .filter((f) => f.quads)
      .map((f) => f.format)
      .sort();
    assert.deepEqual(quadFormats, ['hext', 'json-ld', 'nquads', 'trig']);
  });

  it('refuses an unknown return_type with a 422 naming the field and the allowed values', () => {
    for (const bad of ['rdf', 'TURTLE', '', 'nquads', undefined, 7]) {
      assert.equal(isReturnType(bad), false);
      assert.throws(
        () => returnTypeInfo(bad),
        (error: unknown) => {
          assert.ok(error instanceof DomainError);
          assert.equal(error.kind, 'invalid');
          assert.equal(error.field, 'return_type');
          assert.match(error.message, /^return_type: /);
          assert.match(error.message, /json-ld, n3, nt, hext, trig, turtle, longturtle, xml/);
          return true;
        },
      );
    }
  });

  it('names the caller’s field when it has another name', () => {
    assert.throws(() => returnTypeInfo('svg', 'format'), /^DomainError: format: unknown value "svg"/);
  });

  it('makes serialize refuse an unknown format the same way', async () => {
    await assert.rejects(
      serialize([], 'svg' as never),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid',
    );
  });
});

describe('format guessing', () => {
  it('maps content types, ignoring parameters and case', () => {
    assert.equal(formatFromContentType('text/turtle; charset=utf-8'), 'turtle');
    assert.equal(formatFromContentType('Application/LD+JSON'), 'json-ld');
    assert.equal(formatFromContentType('application/rdf+xml'), 'xml');
    assert.equal(formatFromContentType('text/html'), undefined);
    assert.equal(formatFromContentType(undefined), undefined);
  });

  it('maps file names and URLs by extension', () => {
    assert.equal(formatFromFileName('https://example.org/a/example5.ttl?x=1#y'), 'turtle');
    assert.equal(formatFromFileName('example-metadata.json'), 'json-ld');
    assert.equal(formatFromFileName('map.rdf'), 'xml');
    assert.equal(formatFromFileName('dump.nq'), 'nquads');
    assert.equal(formatFromFileName('https://example.org/data'), undefined);
  });

  it('trusts the text over the name (the seed’s .rdf files hold Turtle)', () => {
    assert.equal(guessFormat({ name: 'csvw-template-map.rdf', text: '@prefix ex: <http://e/> .' }), 'trig');
    assert.equal(guessFormat({ name: 'x.ttl', text: '<?xml version="1.0"?><rdf:RDF/>' }), 'xml');
    assert.equal(guessFormat({ text: '{"@context": {}}' }), 'json-ld');
    assert.equal(guessFormat({ text: '[{"@id": "http://e/"}]' }), 'json-ld');
    assert.equal(guessFormat({ text: '["http://e/s", "http://e/p", "o", "globalId", "", ""]\n' }), 'hext');
    assert.equal(guessFormat({ text: '[] a <http://e/T> .' }), 'trig');
    assert.equal(
      guessFormat({ contentType: 'application/n-quads', text: '<http://e/s> <http://e/p> "o" .' }),
      'nquads',
    );
    assert.equal(guessFormat({ name: 'x.n3' }), 'n3');
  });
});
