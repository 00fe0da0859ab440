// Arbitrary sentences of the query builder for property tests: odd but valid IRIs (RFC 3987),
// any literal text (lone surrogates included), language tags, datatypes and numbers as typed.
import fc from '../support/fc.ts';
import { DataFactory } from 'n3';
import { COMPARISONS, MAX_STEPS, type Sentence, type Step } from '../../lib/triplestore/builder.ts';
import { isStrictIri } from '../../lib/triplestore/names.ts';

const { namedNode, literal } = DataFactory;
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const iri = fc
  .oneof(
    fc.webUrl({ withFragments: true, withQueryParameters: true }),
    fc
      .tuple(
        fc.constantFrom('http://example.org/', 'urn:x:', 'https://x.test/a#'),
        fc.string({ unit: 'binary', maxLength: 20 }),
      )
      .map(([base, rest]) => base + rest),
  )
  .filter(isStrictIri);

const number = fc.oneof(
  fc.integer().map(String),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((d) => d.toString())
    .filter((t) => /^[-0-9.e+]+$/.test(t)),
  fc.stringMatching(/^[+-]?(?:[0-9]{1,5}(?:\.[0-9]{0,3})?|\.[0-9]{1,3})(?:[eE][+-]?[0-9]{1,3})?$/),
);

const value = fc.oneof(
  iri.map((i) => namedNode(i)),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '\uD800', '\uDFFF'))
    .map(([t, lone]) => literal(t + lone)),
  fc
    .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('de', 'en-GB', 'x-private1'))
    .map(([t, l]) => literal(t, l)),
  fc.tuple(fc.string({ maxLength: 10 }), iri).map(([t, d]) => literal(t, namedNode(d))),
  number.map((n) => literal(n, namedNode(`${XSD}decimal`))),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  iri.map((property) => ({ property })),
  iri.map((property) => ({ property, inverse: true as const })),
  fc.tuple(iri, iri).map(([property, o]) => ({
    property,
    inverse: true as const,
    filter: { kind: 'is' as const, value: namedNode(o) },
  })),
  fc.tuple(iri, value).map(([property, v]) => ({ property, filter: { kind: 'is' as const, value: v } })),
  fc
    .tuple(iri, fc.constantFrom(...COMPARISONS), number)
    .map(([property, kind, n]) => ({ property, filter: { kind, number: n } })),
);

export const sentence: fc.Arbitrary<Sentence> = fc
  .tuple(fc.option(iri, { nil: undefined }), fc.array(step, { maxLength: MAX_STEPS }))
  .map(([cls, steps]) => (cls === undefined ? { steps } : { class: cls, steps }));
