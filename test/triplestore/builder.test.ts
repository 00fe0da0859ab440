// The query builder's sentences: their words, and the SPARQL they become, run on oxigraph over
// a small hand-written graph whose answers are written here by hand. A property test: any
// sentence (odd IRIs, any literal text, any number) gives queries oxigraph parses and the
// endpoint's guard accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import { DataFactory, type Literal } from 'n3';
import { Store } from 'oxigraph';
import { DomainError } from '../../lib/process/errors.ts';
import {
  MAX_STEPS,
  checkSentence,
  classesQuery,
  countQuery,
  localName,
  propertiesQuery,
  rangeQuery,
  resultsQuery,
  valuesQuery,
  words,
  type Sentence,
} from '../../lib/triplestore/builder.ts';
import { guardQuery } from '../../lib/triplestore/guard.ts';
import { sentence } from './sentences.ts';

const { namedNode, literal } = DataFactory;
const EX = 'http://example.org/';
const QUDT = 'http://qudt.org/schema/qudt/';
const UNIT = 'http://qudt.org/vocab/unit/';

const GRAPH = `
@prefix ex: <${EX}> . @prefix qudt: <${QUDT}> . @prefix unit: <${UNIT}> .
ex:f1 a qudt:QuantityValue ; qudt:unit unit:KiloN ; qudt:value 1.5 .
ex:f2 a qudt:QuantityValue ; qudt:unit unit:KiloN ; qudt:value 2.5 .
ex:f3 a qudt:QuantityValue ; qudt:unit unit:KiloN ; qudt:value 3.0e0 .
ex:l1 a qudt:QuantityValue ; qudt:unit unit:MilliM ; qudt:value 4 .
ex:c1 ex:hasBody ex:f1 . ex:c2 ex:hasBody ex:l1 .
ex:s1 a ex:Specimen ; ex:label "Probe \\"A\\"\\n\\\\1" ; ex:name "Probe"@de .
ex:s2 <${EX}p\u2028> "line\u2028separated" .
`;

function store(): Store {
  const s = new Store();
  s.load(GRAPH, { format: 'text/turtle' });
  return s;
}

function select(s: Store, query: string): Record<string, string>[] {
  const solutions = s.query(query) as Map<string, { value: string }>[];
  return solutions.map((m) => Object.fromEntries([...m].map(([k, t]) => [k, t.value])));
}

const forces: Sentence = {
  class: `${QUDT}QuantityValue`,
  steps: [
    { property: `${QUDT}unit`, filter: { kind: 'is', value: namedNode(`${UNIT}KiloN`) } },
    { property: `${QUDT}value`, filter: { kind: 'gt', number: '2' } },
  ],
};

test('a sentence in words', () => {
  assert.equal(words(forces), 'Every QuantityValue whose unit is KiloN and whose value is greater than 2');
  assert.equal(words({ steps: [] }), 'Everything');
  assert.equal(
    words({
      steps: [
        { property: `${EX}label` },
        { property: `${EX}name`, filter: { kind: 'is', value: literal('Probe', 'de') } },
      ],
    }),
    'Everything with a label and whose name is “Probe” (de)',
  );
  assert.equal(
    words({ steps: [{ property: `${EX}n`, filter: { kind: 'le', number: '-0.5' } }] }),
    'Everything whose n is at most -0.5',
  );
  assert.equal(localName('https://example.org/m#Force%20Measurement'), 'Force Measurement');
  assert.equal(localName('urn:x:thing'), 'thing');
  assert.equal(localName('http://example.org/'), 'http://example.org/');
});

test('measurements in kN greater than 2: the rows, their count, in order', () => {
  const s = store();
  assert.deepEqual(select(s, resultsQuery(forces, 100)), [
    { x: `${EX}f2`, v1: `${UNIT}KiloN`, v2: '2.5' },
    { x: `${EX}f3`, v1: `${UNIT}KiloN`, v2: '3' },
  ]);
  assert.deepEqual(select(s, countQuery(forces)), [{ n: '2' }]);
  assert.deepEqual(select(s, resultsQuery(forces, 1)).length, 1);
  const atMost = {
    ...forces,
    steps: [forces.steps[0]!, { property: `${QUDT}value`, filter: { kind: 'le', number: '2.5' } }],
  };
  assert.deepEqual(
    select(s, resultsQuery(atMost as Sentence, 100)).map((r) => r.x),
    [`${EX}f1`, `${EX}f2`],
  );
});

test('what can be added next: classes, properties, values and the range of the numbers, with counts', () => {
  const s = store();
  assert.deepEqual(select(s, classesQuery(10)), [
    { class: `${QUDT}QuantityValue`, n: '4' },
    { class: `${EX}Specimen`, n: '1' },
  ]);
  const quantities: Sentence = { class: `${QUDT}QuantityValue`, steps: [] };
  assert.deepEqual(select(s, propertiesQuery(quantities, 10)), [
    { property: `${QUDT}unit`, n: '4' },
    { property: `${QUDT}value`, n: '4' },
    { property: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', n: '4' },
  ]);
  const units: Sentence = { ...quantities, steps: [{ property: `${QUDT}unit` }] };
  assert.deepEqual(select(s, valuesQuery(units, 10)), [
    { value: `${UNIT}KiloN`, n: '3' },
    { value: `${UNIT}MilliM`, n: '1' },
  ]);
  const values: Sentence = { ...quantities, steps: [{ property: `${QUDT}value` }] };
  assert.deepEqual(select(s, rangeQuery(values)), [{ min: '1.5', max: '4', n: '4' }]);
  assert.deepEqual(select(s, rangeQuery(units)), [{ n: '0' }]);
  assert.throws(
    () => valuesQuery(forces, 10),
    (e: unknown) => e instanceof DomainError && e.field === 'steps',
  );
});

test('a backward step: the quantity values a column points at', () => {
  const s = store();
  const ofColumn: Sentence = {
    class: `${QUDT}QuantityValue`,
    steps: [{ property: `${EX}hasBody`, inverse: true, filter: { kind: 'is', value: namedNode(`${EX}c1`) } }],
  };
  assert.equal(words(ofColumn), 'Every QuantityValue that is the hasBody of c1');
  assert.deepEqual(select(s, resultsQuery(ofColumn, 10)), [{ x: `${EX}f1`, v1: `${EX}c1` }]);
  const pointedAt: Sentence = {
    class: `${QUDT}QuantityValue`,
    steps: [{ property: `${EX}hasBody`, inverse: true }],
  };
  assert.equal(words(pointedAt), 'Every QuantityValue that is the hasBody of something');
  assert.deepEqual(select(s, propertiesQuery({ class: `${QUDT}QuantityValue`, steps: [] }, 10, true)), [
    { property: `${EX}hasBody`, n: '2' },
  ]);
  assert.deepEqual(select(s, valuesQuery(pointedAt, 10)), [
    { value: `${EX}c1`, n: '1' },
    { value: `${EX}c2`, n: '1' },
  ]);
  for (const filter of [
    { kind: 'gt' as const, number: '1' },
    { kind: 'is' as const, value: literal('c1') },
  ]) {
    assert.throws(
      () => resultsQuery({ steps: [{ property: `${EX}hasBody`, inverse: true, filter }] }, 10),
      (e: unknown) => e instanceof DomainError && e.field === 'v1',
    );
  }
});

test('a literal value with quotes, a line break and a backslash is matched, not read as syntax', () => {
  const s = store();
  const label: Sentence = {
    steps: [{ property: `${EX}label`, filter: { kind: 'is', value: literal('Probe "A"\n\\1') } }],
  };
  assert.deepEqual(select(s, resultsQuery(label, 10)), [{ x: `${EX}s1`, v1: 'Probe "A"\n\\1' }]);
  const german: Sentence = {
    steps: [{ property: `${EX}name`, filter: { kind: 'is', value: literal('Probe', 'de') } }],
  };
  assert.equal(select(s, resultsQuery(german, 10)).length, 1);
  const english: Sentence = {
    steps: [{ property: `${EX}name`, filter: { kind: 'is', value: literal('Probe', 'en') } }],
  };
  assert.equal(select(s, resultsQuery(english, 10)).length, 0);
});

test('an IRI or a literal holding U+2028 or U+2029 is written as it is in every query', () => {
  const s = store();
  // sparqljs's own indentation broke lines there too, and wrote spaces into the IRI and the literal.
  const separated: Sentence = {
    steps: [{ property: `${EX}p\u2028`, filter: { kind: 'is', value: literal('line\u2028separated') } }],
  };
  assert.deepEqual(select(s, resultsQuery(separated, 10)), [{ x: `${EX}s2`, v1: 'line\u2028separated' }]);
  assert.deepEqual(select(s, countQuery(separated)), [{ n: '1' }]);
  const open: Sentence = { steps: [{ property: `${EX}p\u2029` }, { property: `${EX}p\u2028` }] };
  for (const query of [propertiesQuery(open, 10), valuesQuery(open, 10), rangeQuery(open)]) {
    assert.doesNotMatch(query, /[\u2028\u2029] /u);
    s.query(query);
  }
  assert.deepEqual(
    select(s, propertiesQuery({ steps: [{ property: `${EX}p\u2028` }] }, 10)).map((r) => r.property),
    [`${EX}p\u2028`],
  );
});

test('IRIs that cannot be written, numbers that are not numbers and too many steps are refused, naming the field', () => {
  const refused = (sentence: Sentence, field: string) =>
    assert.throws(
      () => resultsQuery(sentence, 10),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && e.field === field,
    );
  refused({ class: 'http://x.test/a> } DROP ALL #', steps: [] }, 'class');
  refused({ class: 'not an iri', steps: [] }, 'class');
  refused({ steps: [{ property: 'http://x.test/p>' }] }, 'p1');
  refused(
    {
      steps: [
        { property: `${EX}p` },
        { property: `${EX}q`, filter: { kind: 'gt', number: '2) || true || (1' } },
      ],
    },
    'v2',
  );
  refused(
    { steps: [{ property: `${EX}p`, filter: { kind: 'is', value: namedNode('http://x.test/o>') } }] },
    'v1',
  );
  // A term from any RDF/JS factory (n3's own would not even keep such a language tag).
  const badLanguage = {
    termType: 'Literal',
    value: 'x',
    language: 'en" . }',
    datatype: namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#langString'),
  } as unknown as Literal;
  refused({ steps: [{ property: `${EX}p`, filter: { kind: 'is', value: badLanguage } }] }, 'v1');
  refused(
    {
      steps: [
        { property: `${EX}p`, filter: { kind: 'is', value: literal('x', namedNode('http://x.test/d>')) } },
      ],
    },
    'v1',
  );
  refused({ steps: Array.from({ length: MAX_STEPS + 1 }, () => ({ property: `${EX}p` })) }, 'steps');
});

test('property: any sentence gives queries that oxigraph parses and the endpoint guard accepts', () => {
  const s = store();
  fc.assert(
    fc.property(sentence, (sn) => {
      const checked = checkSentence(sn);
      const queries = [resultsQuery(checked, 100), countQuery(checked), propertiesQuery(checked, 50)];
      if (checked.steps.length > 0 && !checked.steps.at(-1)!.filter) {
        queries.push(valuesQuery(checked, 50), rangeQuery(checked));
      }
      for (const query of queries) {
        s.query(query); // throws on a syntax error
        guardQuery(query, [], 1000);
      }
      assert.equal(typeof words(checked), 'string');
    }),
    { numRuns: 200 },
  );
  s.query(classesQuery(50));
});
