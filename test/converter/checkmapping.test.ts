// checkmapping follows the original's algorithm (research seed-services §3.6); the expected
// numbers are the ones the research recorded for the original on the seed files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkMapping, checkMappingAt, readYarrrmlMapping } from '../../lib/converter/index.ts';
import { BATCH_MAPPING_URL, CSVW_MAPPING_URL, DESCRIPTOR_URL, readSeed, seedLoader } from './support.ts';

const descriptor = () => JSON.parse(readSeed('csvtocsvw/example-metadata.json')) as unknown;

test('the seed CSVW mapping against its descriptor: 7 applicable, 0 skipped', async () => {
  assert.deepEqual(await checkMappingAt({ mappingUrl: CSVW_MAPPING_URL }, seedLoader()), {
    rules_applicable: 7,
    rules_skipped: 0,
  });
});

test('JSON payload mode: catenax-batch-map.yaml against Batch.json: all 6 applicable', async () => {
  assert.deepEqual(await checkMappingAt({ mappingUrl: BATCH_MAPPING_URL }, seedLoader()), {
    rules_applicable: 6,
    rules_skipped: 0,
  });
});

test('a mapping checked against another data type: 0 applicable', async () => {
  assert.deepEqual(
    await checkMappingAt({ mappingUrl: BATCH_MAPPING_URL, dataUrl: DESCRIPTOR_URL }, seedLoader()),
    {
      rules_applicable: 0,
      rules_skipped: 6,
    },
  );
  assert.deepEqual(
    await checkMappingAt(
      {
        mappingUrl: CSVW_MAPPING_URL,
        dataUrl:
          'https://raw.githubusercontent.com/eclipse-tractusx/sldt-semantic-models/refs/heads/main/io.catenax.batch/3.0.1/gen/Batch.json',
      },
      seedLoader(),
    ),
    { rules_applicable: 0, rules_skipped: 7 },
  );
});

test('$..[*] is not an error for checkmapping: every rule skipped, the data not fetched', async () => {
  const seen: string[] = [];
  const url = 'https://example.org/unsupported.yaml';
  const result = await checkMappingAt(
    { mappingUrl: url },
    seedLoader({ [url]: readSeed('rdfconverter/test_unsupported_iterator.yaml') }, seen),
  );
  assert.deepEqual(result, { rules_applicable: 0, rules_skipped: 1 });
  assert.deepEqual(seen, [url]);
});

test('names are compared case-sensitively, character for character', () => {
  const text = readSeed('rdfconverter/csvw-template-map.yaml');
  for (const [from, to] of [
    ['[str2, Standardkraft]', '[str2, standardkraft]'],
    ['[str2, Vorkraft]', "[str2, 'Vorkraft ']"],
    ['[str2, Prüfgeschwindigkeit]', '[str2, Pruefgeschwindigkeit]'],
  ] as const) {
    assert.ok(text.includes(from));
    assert.deepEqual(checkMapping(readYarrrmlMapping(text.replace(from, to)), descriptor()), {
      rules_applicable: 6,
      rules_skipped: 1,
    });
  }
});

test('conditions: idlab-fn names and parameter aliases, notEqual, unknown functions count as true', () => {
  const mapping = (condition: string) =>
    readYarrrmlMapping(`
sources:
  notes: {access: 'https://x.org/d.json', iterator: '$.notes[*]', referenceFormulation: jsonpath}
mappings:
  r:
    sources: [notes]
    s: $(@id)
    condition:
${condition}
    po: [[a, 'http://x.org/T']]
`);
  const data = { notes: [{ '@id': 'https://x.org/n1', label: 'Vorkraft', count: 5, flag: true }] };
  const cases: [string, number][] = [
    [
      '      function: idlab-fn:equal\n      parameters: [[grel:valueParameter, $(label)], [grel:valueParameter2, Vorkraft]]',
      1,
    ],
    [
      '      function: http://example.com/idlab/function/notEqual\n      parameters: [[str1, $(label)], [str2, Vorkraft]]',
      0,
    ],
    ['      function: equal\n      parameters: [[str1, $(count)], [str2, "5"]]', 1],
    ['      function: equal\n      parameters: [[str1, $(flag)], [str2, "True"]]', 1],
    ['      function: equal\n      parameters: [[str1, $(missing)], [str2, ""]]', 1],
    ['      function: inRange\n      parameters: [[test, $(count)], [from, "1"], [to, "5"]]', 1],
    [
      '      function: stringContainsOtherString\n      parameters: [[str, "a,Vorkraft"], [otherStr, $(label)]]',
      1,
    ],
    ['      function: isNull\n      parameters: [[str, $(nothing)]]', 1],
    ['      function: someOtherFunction\n      parameters: [[str1, x]]', 1],
  ];
  for (const [condition, applicable] of cases) {
    assert.equal(checkMapping(mapping(condition), data).rules_applicable, applicable, condition);
  }
});

test('without a condition: the subject references must all have values in some item', () => {
  const mapping = readYarrrmlMapping(`
sources:
  root: {access: 'https://x.org/d.json', iterator: '$', referenceFormulation: jsonpath}
  items: {access: 'https://x.org/d.json', iterator: '$.items[*]', referenceFormulation: jsonpath}
mappings:
  whole: {sources: root, s: 'Thing_$(id)'}
  nested: {sources: root, s: 'Place_$(.place.city)'}
  each: {sources: [items], s: 'Item_$(key)_$(value)'}
  static: {sources: [items], s: 'http://x.org/fixed'}
  nosource: {s: 'http://x.org/other'}
  unknown: {sources: [elsewhere], s: 'http://x.org/other'}
`);
  const data = { id: 1, place: { city: 'Berlin' }, items: [{ key: 'a' }, { value: 'b' }] };
  assert.deepEqual(checkMapping(mapping, data), { rules_applicable: 3, rules_skipped: 3 });
});

test('unreadable data is a 422 naming data_url', async () => {
  await assert.rejects(
    checkMappingAt(
      { mappingUrl: CSVW_MAPPING_URL, dataUrl: 'https://example.org/missing.json' },
      seedLoader(),
    ),
    (error: Error & { kind?: string }) => error.kind === 'invalid' && /data_url/.test(error.message),
  );
  const url = 'https://example.org/garbage.json';
  await assert.rejects(
    checkMappingAt({ mappingUrl: CSVW_MAPPING_URL, dataUrl: url }, seedLoader({ [url]: '{"not json' })),
    (error: Error & { kind?: string }) =>
      error.kind === 'invalid' && /could not access or parse/.test(error.message),
  );
});
