// Parsing: errors are 422s naming the field; blank nodes of separate documents stay apart;
// isomorphism is blank-node aware.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DataFactory } from 'n3';
import { DomainError } from '../../lib/process/errors.ts';
import { parseJson } from '../../lib/limits.ts';
import { RETURN_TYPES, canonicalNQuads, isomorphic, parse, serialize } from '../../lib/rdf/index.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

describe('parse', () => {
  it('turns syntax errors into 422s naming the field, for every format', async () => {
    for (const format of [...RETURN_TYPES, 'nquads'] as const) {
      await assert.rejects(
        parse('<http://e/s> <http://e/p> "unterminated', format, { field: 'rdf_url' }),
        (error) => {
          assert.ok(error instanceof DomainError, `${format}: ${String(error)}`);
          assert.equal(error.kind, 'invalid');
          assert.equal(error.field, 'rdf_url');
          assert.ok(
            error.message.startsWith(`rdf_url: could not parse the ${format} document: `),
            error.message,
          );
          return true;
        },
      );
    }
  });

  it('never repeats the document in an error: a fetched page (labld /metrics) is not read out', async () => {
    const metrics = '# HELP labld_up up\n# TYPE labld_up gauge\nlabld_process_cpu_user_seconds_total 0.5\n';
    const broken = '{"@id": "http://e/s", "secret_value": "lab-password-1" "next": 1}';
    for (const format of [...RETURN_TYPES, 'nquads'] as const) {
      for (const text of [metrics, broken]) {
        await assert.rejects(parse(text, format, { field: 'url' }), (error) => {
          assert.ok(error instanceof DomainError, `${format}: ${String(error)}`);
          for (const word of ['labld_process', 'secret_value', 'lab-password', 'http://e/s']) {
            assert.ok(!error.message.includes(word), `${format}: ${error.message}`);
          }
          return true;
        });
      }
    }
    // JSON read anywhere else (a CSVW metadata_url, a converter's data) says where, not what.
    for (const text of [metrics, broken]) {
      assert.throws(
        () => parseJson(text, 'metadata_url'),
        (error: Error) => !/labld_process|secret_value|lab-password/.test(error.message),
      );
    }
  });

  it('a JSON array of values read as the Turtle family says it is a JSON array', async () => {
    const names = { turtle: 'Turtle', trig: 'TriG', nt: 'N-Triples', nquads: 'N-Quads', n3: 'N3' } as const;
    for (const [format, name] of Object.entries(names)) {
      await assert.rejects(parse(' [1, "two", null]', format as keyof typeof names, { field: 'rdf_url' }), {
        kind: 'invalid',
        field: 'rdf_url',
        message:
          `rdf_url: found a JSON array of numbers and strings and nulls, not ${name} or JSON-LD: ` +
          'a JSON-LD document is an object or an array of objects',
      });
    }
  });

  it('refuses an unknown format as a DomainError', async () => {
    await assert.rejects(parse('', 'svg' as never), DomainError);
  });

  it('resolves relative IRIs against baseIRI', async () => {
    const [q] = await parse('<#x> <http://e/p> <y> .', 'turtle', { baseIRI: 'http://example.org/doc' });
    assert.equal(q!.subject.value, 'http://example.org/doc#x');
    assert.equal(q!.object.value, 'http://example.org/y');
  });

  it('keeps blank nodes of separately parsed documents apart, in every format', async () => {
    const quads = [quad(blankNode('x'), namedNode('http://e/p'), literal('o'))];
    for (const format of RETURN_TYPES) {
      const text = await serialize(quads, format);
      const [a] = await parse(text, format);
      const [b] = await parse(text, format);
      assert.notEqual(a!.subject.value, b!.subject.value, format);
    }
  });
});

describe('isomorphism', () => {
  const p = namedNode('http://e/p');
  it('ignores blank node labels and duplicates', async () => {
    const a = [quad(blankNode('a'), p, blankNode('b')), quad(blankNode('b'), p, literal('1'))];
    const b = [
      quad(blankNode('y'), p, literal('1')),
      quad(blankNode('x'), p, blankNode('y')),
      quad(blankNode('y'), p, literal('1')),
    ];
    assert.equal(await isomorphic(a, b), true);
    assert.equal(await canonicalNQuads(a), '_:c14n0 <http://e/p> "1" .\n_:c14n1 <http://e/p> _:c14n0 .\n');
  });

  it('tells different graphs apart', async () => {
    const chain = [quad(blankNode('a'), p, blankNode('b')), quad(blankNode('b'), p, blankNode('c'))];
    const fork = [quad(blankNode('a'), p, blankNode('b')), quad(blankNode('a'), p, blankNode('c'))];
    assert.equal(await isomorphic(chain, fork), false);
    const typed = [
      quad(namedNode('http://e/s'), p, literal('1', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
    ];
    const plain = [quad(namedNode('http://e/s'), p, literal('1'))];
    assert.equal(await isomorphic(typed, plain), false);
  });
});

describe('RDF 1.2 input', () => {
  const documents = {
    'triple terms': '<http://e/s> <http://e/p> <<( <http://e/a> <http://e/b> <http://e/c> )>> .',
    'directional language strings': '<http://e/s> <http://e/p> "x"@en--ltr .',
  };
  for (const [what, document] of Object.entries(documents)) {
    it(`keeps ${what} in the Turtle family`, async () => {
      const quads = await parse(document, 'turtle');
      for (const format of ['turtle', 'trig', 'nt', 'nquads', 'n3'] as const) {
        const back = await parse(await serialize(quads, format), format);
        assert.equal(back.length, 1);
        assert.ok(back[0]!.equals(quads[0]!), format);
      }
    });

    it(`refuses ${what} where the format cannot carry them`, async () => {
      const quads = await parse(document, 'turtle');
      for (const format of ['json-ld', 'xml', 'hext'] as const) {
        await assert.rejects(serialize(quads, format), (error: unknown) => {
          assert.ok(
            error instanceof DomainError && error.kind === 'invalid' && error.field === 'return_type',
          );
          assert.ok(error.message.includes(what), error.message);
          return true;
        });
      }
    });
  }
});
