// Mapping selection: a broken YAML is a ranked-out candidate, and fails the step only when
// nothing is selected; the ranking orders by rules_applicable − rules_skipped with ties in
// library order (property test); the strategy comes from the variable the spec names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import {
  chooseMapping,
  mappingStrategy,
  rankMappings,
  selectMapping,
  type CheckedMapping,
  type ChainFile,
  type MappingStrategy,
} from '../../lib/chain/index.ts';
import { isDomainError } from '../../lib/process/errors.ts';
import { readSeed } from '../support/shared.ts';
import {
  BROKEN_MAPPING,
  HARDNESS_MAPPING,
  PARTIAL_MAPPING,
  SEED_MAPPING,
  mapping,
  resourceUrl,
  store,
} from './support.ts';

const blobs = store();
/** The seed's descriptor of example.csv (what the seed mapping was written for). */
const descriptor: ChainFile = {
  url: 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-metadata.json',
  blob: await blobs.putBytes(readSeed('csvtocsvw/example-metadata.json')),
  name: 'example-metadata.json',
};

test('a broken YAML in the library is ranked out with its error; the seed mapping still wins', async () => {
  const library = [BROKEN_MAPPING, HARDNESS_MAPPING, SEED_MAPPING];
  const { selection } = await selectMapping({ descriptor, library, strategy: 'exact' }, { blobs });
  assert.equal(selection.selected?.name, 'csvw-template-map.yaml');
  assert.equal(selection.checked, 3);
  assert.equal(selection.broken, 1);
  const last = selection.ranking.at(-1)!;
  assert.equal(last.name, 'broken-map.yaml');
  assert.equal(last.rank, undefined);
  assert.equal(last.qualifies, false);
  assert.match(last.error ?? '', /not valid YAML/);
});

test('nothing selected while a mapping could not be read: the step fails naming it (it may be the one meant)', async () => {
  const library = [HARDNESS_MAPPING, BROKEN_MAPPING];
  await assert.rejects(
    selectMapping({ descriptor, library, strategy: 'exact' }, { blobs }),
    (e) =>
      isDomainError(e) &&
      e.kind === 'invalid' &&
      e.field === 'mappings' &&
      /no mapping selected \(no mapping has an applicable rule/.test(e.detail) &&
      /1 mapping\(s\) of the group mappings could not be read: "broken-map\.yaml": .*not valid YAML/.test(
        e.detail,
      ),
  );
});

test('a library entry whose stored file is gone, or that is YAML but no mapping, is ranked out too', async () => {
  const gone = { name: 'gone.yaml', url: resourceUrl('m-gone', 'gone.yaml'), blob: 'f'.repeat(64) };
  const notMapping = mapping('m-readme', 'readme.yaml', 'title: not a mapping\n');
  const { selection } = await selectMapping(
    { descriptor, library: [gone, notMapping, PARTIAL_MAPPING], strategy: 'best_match' },
    { blobs },
  );
  assert.equal(selection.selected?.name, 'tensile-partial-map.yaml');
  assert.deepEqual(
    selection.ranking.map((r) => [r.name, r.error === undefined]),
    [
      ['tensile-partial-map.yaml', true],
      ['gone.yaml', false],
      ['readme.yaml', false],
    ],
  );
  assert.match(selection.ranking[1]!.error ?? '', /no stored file/);
  assert.match(selection.ranking[2]!.error ?? '', /no "mappings" block/);
});

test('the reason in words when nothing qualifies', () => {
  const checked = (applicable: number, skipped: number): CheckedMapping => ({
    name: `m${applicable}-${skipped}`,
    url: `https://example.org/m${applicable}-${skipped}.yaml`,
    check: { rules_applicable: applicable, rules_skipped: skipped },
  });
  assert.match(
    chooseMapping([], 'exact').reason ?? '',
    /no mapping to check: the group mappings holds no YAML resource/,
  );
  assert.match(
    chooseMapping([{ name: 'b.yaml', url: 'https://example.org/b.yaml', error: 'not valid YAML' }], 'exact')
      .reason ?? '',
    /none of the 1 mappings could be read; the first: "b\.yaml": not valid YAML/,
  );
  assert.match(
    chooseMapping([checked(0, 6)], 'best_match').reason ?? '',
    /no mapping has an applicable rule \(best: "m0-6", 0 rules applicable, 6 skipped\)/,
  );
  // The research's examples: {4,0} rating 4, {5,2} rating 3, {0,6} rating −6.
  assert.equal(chooseMapping([checked(5, 2), checked(4, 0), checked(0, 6)], 'exact').selected?.name, 'm4-0');
  assert.equal(
    chooseMapping([checked(5, 2), checked(4, 0), checked(0, 6)], 'best_match').selected?.name,
    'm4-0',
  );
  assert.equal(chooseMapping([checked(5, 2), checked(0, 6)], 'best_match').selected?.name, 'm5-2');
  assert.match(
    chooseMapping([checked(2, 3)], 'best_match').reason ?? '',
    /no mapping has more applicable than skipped rules/,
  );
  assert.doesNotMatch(
    chooseMapping([checked(2, 3)], 'exact').reason ?? '',
    /best_match/,
    'best_match would not help',
  );
});

test('the ranking table keeps the top rows, then the unreadable ones, and counts the rest', () => {
  const many: CheckedMapping[] = Array.from({ length: 14 }, (_, i) => ({
    name: `m${i}`,
    url: `https://example.org/m${i}.yaml`,
    check: { rules_applicable: i, rules_skipped: 0 },
  }));
  many.push({ name: 'bad', url: 'https://example.org/bad.yaml', error: 'not valid YAML' });
  const selection = chooseMapping(many, 'exact');
  assert.deepEqual(
    selection.ranking.map((r) => r.name),
    ['m13', 'm12', 'm11', 'm10', 'm9', 'm8', 'm7', 'm6', 'm5', 'm4', 'bad'],
  );
  assert.equal(selection.omitted, 4);
});

const candidates = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.record({ applicable: fc.nat(6), skipped: fc.nat(6) }) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    { maxLength: 25 },
  )
  .map((list) =>
    list.map((check, i): CheckedMapping =>
      check
        ? {
            name: `m${i}`,
            url: `https://example.org/m${i}.yaml`,
            check: { rules_applicable: check.applicable, rules_skipped: check.skipped },
          }
        : { name: `m${i}`, url: `https://example.org/m${i}.yaml`, error: 'broken' },
    ),
  );
const strategies = fc.constantFrom<MappingStrategy>('exact', 'best_match');
const indexOf = (name: string) => Number(name.slice(1));

test('ranking: a permutation, rated best first with ties in library order, unreadable last in library order', () => {
  fc.assert(
    fc.property(candidates, strategies, (checked, strategy) => {
      const ranked = rankMappings(checked, strategy);
      assert.deepEqual(ranked.map((r) => r.name).sort(), checked.map((c) => c.name).sort());
      const rated = ranked.filter((r) => r.rank !== undefined);
      const broken = ranked.slice(rated.length);
      assert.ok(broken.every((r) => r.rank === undefined && r.error !== undefined && !r.qualifies));
      rated.forEach((r, i) => {
        assert.equal(r.rank, i + 1);
        assert.equal(r.rating, r.rules_applicable! - r.rules_skipped!);
        const next = rated[i + 1];
        if (!next) return;
        assert.ok(r.rating! >= next.rating!, 'rating does not increase');
        if (r.rating === next.rating)
          assert.ok(indexOf(r.name) < indexOf(next.name), 'ties keep library order');
      });
      for (let i = 1; i < broken.length; i++)
        assert.ok(indexOf(broken[i - 1]!.name) < indexOf(broken[i]!.name));
    }),
  );
});

test('selection: the first qualifying candidate of the highest rating, earliest in the library', () => {
  fc.assert(
    fc.property(candidates, strategies, (checked, strategy) => {
      const ok = (c: CheckedMapping) =>
        c.check !== undefined &&
        (strategy === 'exact'
          ? c.check.rules_skipped === 0 && c.check.rules_applicable > 0
          : c.check.rules_applicable - c.check.rules_skipped > 0);
      const qualifying = checked.filter(ok);
      const selection = chooseMapping(checked, strategy);
      if (qualifying.length === 0) {
        assert.equal(selection.selected, undefined);
        assert.ok((selection.reason ?? '').length > 0);
        return;
      }
      const score = (c: CheckedMapping) => c.check!.rules_applicable - c.check!.rules_skipped;
      const best = Math.max(...qualifying.map(score));
      const expected = qualifying.find((c) => score(c) === best)!;
      assert.equal(selection.selected?.name, expected.name);
      assert.equal(selection.reason, undefined);
    }),
  );
});

test('the strategy comes from …CSVWMAPANDTRANSFORM__MAPPING_STRATEGY: exact by default, a typo refused', () => {
  const variable = 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_STRATEGY';
  assert.equal(mappingStrategy({}), 'exact');
  assert.equal(mappingStrategy({ [variable]: '' }), 'exact');
  assert.equal(mappingStrategy({ [variable]: 'best_match' }), 'best_match');
  assert.equal(mappingStrategy({ [variable]: ' Best_Match ' }), 'best_match');
  assert.throws(
    () => mappingStrategy({ [variable]: 'bestmatch' }),
    new RegExp(`${variable} must be exact or best_match`),
  );
});
