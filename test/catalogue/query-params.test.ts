// The query page's address: a sentence written as parameters reads back as the same sentence,
// and any parameters at all either make a sentence or are refused as `invalid`, naming the
// parameter (a 422 page), never anything else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import { DataFactory } from 'n3';
import { parseSentence, sentenceHref, sentenceParams } from '../../gateways/catalogue/query-params.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { checkSentence, type Sentence } from '../../lib/triplestore/builder.ts';
import { sentence } from '../triplestore/sentences.ts';

const QUDT = 'http://qudt.org/schema/qudt/';

/** The parameters as a browser sends them back: through a query string. */
function roundTrip(params: Record<string, string>): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(new URLSearchParams(params).toString())) raw[k] = v;
  return raw;
}

test('a sentence and its parameters, by hand', () => {
  const s: Sentence = {
    class: `${QUDT}QuantityValue`,
    steps: [
      {
        property: `${QUDT}unit`,
        filter: { kind: 'is', value: DataFactory.namedNode('http://qudt.org/vocab/unit/KiloN') },
      },
      { property: `${QUDT}value`, filter: { kind: 'gt', number: '2' } },
      {
        property: 'http://example.org/note',
        filter: { kind: 'is', value: DataFactory.literal('a "b"', 'de') },
      },
      { property: 'http://example.org/size' },
      { property: 'http://www.w3.org/ns/oa#hasBody', inverse: true },
    ],
  };
  assert.deepEqual(sentenceParams(s), {
    class: `${QUDT}QuantityValue`,
    p1: `${QUDT}unit`,
    f1: 'is',
    v1: 'http://qudt.org/vocab/unit/KiloN',
    p2: `${QUDT}value`,
    f2: 'gt',
    v2: '2',
    p3: 'http://example.org/note',
    f3: 'is',
    v3: '"a "b""@de',
    p4: 'http://example.org/size',
    p5: 'http://www.w3.org/ns/oa#hasBody',
    d5: 'in',
  });
  assert.deepEqual(parseSentence(roundTrip(sentenceParams(s))), s);
  assert.match(sentenceHref('tensile', { steps: [] }), /^\/dataset\/tensile\/query#builder$/);
});

test('parameters that make no sentence are refused, naming the parameter', () => {
  const refusal = (raw: Record<string, string | string[]>, field: string) =>
    assert.throws(
      () => parseSentence(raw),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && e.field === field,
    );
  refusal({ p2: `${QUDT}value` }, 'p1');
  refusal({ p1: `${QUDT}value`, f1: 'between', v1: '2' }, 'f1');
  refusal({ p1: `${QUDT}value`, f1: 'gt' }, 'v1');
  refusal({ p1: `${QUDT}value`, f1: 'gt', v1: 'two' }, 'v1');
  refusal({ p1: `${QUDT}value`, f1: 'is', v1: 'not an IRI' }, 'v1');
  refusal({ class: ['urn:a', 'urn:b'] }, 'class');
  refusal({ p1: `${QUDT}value`, d1: 'out' }, 'd1');
  refusal({ p1: `${QUDT}value`, d1: 'in', f1: 'gt', v1: '2' }, 'v1');
  refusal({ class: 'http://x.test/a>' }, 'class');
  refusal(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`p${i + 1}`, 'urn:p'])), 'steps');
});

test('property: every sentence reads back from its parameters as itself', () => {
  fc.assert(
    fc.property(sentence, (s) => {
      const checked = checkSentence(s);
      assert.deepEqual(parseSentence(roundTrip(sentenceParams(checked))), checked);
    }),
    { numRuns: 200 },
  );
});

test('property: any parameters give a sentence or an `invalid` naming one of them', () => {
  const key = fc.oneof(
    fc.constantFrom('class', 'p1', 'd1', 'f1', 'v1', 'p2', 'd2', 'f2', 'v2', 'p3', 'p10', 'loading'),
    fc.string({ maxLength: 4 }),
  );
  const value = fc.oneof(
    fc.constantFrom(
      'is',
      'gt',
      'le',
      'urn:x:y',
      'http://x.test/p',
      '"a"@en',
      '"1"^^http://www.w3.org/2001/XMLSchema#int',
      '2.5',
      '[',
      '_:b',
      '?v',
    ),
    fc.string({ unit: 'binary', maxLength: 20 }),
  );
  fc.assert(
    fc.property(
      fc.dictionary(key, fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 2 }))),
      (raw) => {
        try {
          const s = parseSentence(raw);
          assert.deepEqual(checkSentence(s), s);
        } catch (error) {
          assert.ok(error instanceof DomainError, String(error));
          assert.equal(error.kind, 'invalid');
          assert.ok(
            error.field !== undefined &&
              (error.field in raw || error.field === 'steps' || /^[pdfv]\d+$/.test(error.field)),
            error.message,
          );
        }
      },
    ),
    { numRuns: 500 },
  );
});
