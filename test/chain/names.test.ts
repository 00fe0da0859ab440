// Which uploads start the chain and the names of what it derives (research §1.2, §1.8, D1, D2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import {
  baseName,
  derivedNames,
  derivedReadings,
  descriptorAlias,
  startsChain,
  triggerFormats,
} from '../../lib/chain/index.ts';

const FORMATS = 'CKANINI__CKANEXT__CSVTOCSVW__FORMATS';

test('trigger formats: csv txt asc tsv by default; the variable takes spaces or commas, any case, dots', () => {
  assert.deepEqual(triggerFormats({}), ['csv', 'txt', 'asc', 'tsv']);
  assert.deepEqual(triggerFormats({ [FORMATS]: 'CSV, .dat  tsv' }), ['csv', 'dat', 'tsv']);
});

test('an upload starts the chain by its extension (spec) or by its format field (the original, D1)', () => {
  for (const name of ['example.csv', 'EXAMPLE.CSV', 'run.1.tsv', 'notes.txt', 'machine.asc']) {
    assert.equal(startsChain({ name }), true, name);
  }
  for (const name of [
    'example.xlsx',
    'map.yaml',
    'example-metadata.jsonld',
    'example.ttl',
    'csv',
    'README',
  ]) {
    assert.equal(startsChain({ name }), false, name);
  }
  assert.equal(startsChain({ name: 'export', format: 'CSV' }), true, 'no extension, declared CSV');
  assert.equal(startsChain({ name: 'data.bin', format: 'text/csv' }), false, 'a media type is not a format');
  // The original's substring test let fragments of the list match; membership is exact here.
  assert.equal(startsChain({ name: 'x.sv' }), false);
  assert.equal(startsChain({ name: 'x', format: 'on' }, ['json', 'json-ld']), false);
  assert.equal(startsChain({ name: 'data.dat' }, ['dat']), true, 'configurable');
  assert.equal(startsChain({ name: 'data.csv' }, ['dat']), false);
  assert.equal(
    startsChain({ name: 'data.csv', derived: true }),
    false,
    'what the chain made never starts it',
  );
});

test("base names are the original's: the file name without its last extension", () => {
  assert.equal(baseName('example.csv'), 'example');
  assert.equal(
    baseName('run.2024-01.csv'),
    'run.2024-01',
    'not cut at the first dot (the original transform page bug)',
  );
  assert.equal(baseName('my-data-file.csv'), 'my-data-file', 'not cut at the last dash (the converter bug)');
  assert.equal(baseName('Zugversuch Probe 1.TXT'), 'Zugversuch Probe 1');
  assert.equal(baseName('export'), 'export');
  assert.equal(baseName('.csv'), 'data', 'only an extension: named as the annotator names a nameless CSV');
});

test('derived names: <base>-metadata.jsonld, <base>.ttl, <base>-joined.ttl; <base>.csvw.json is the alias', () => {
  assert.deepEqual(derivedNames('example.csv'), {
    descriptor: {
      kind: 'descriptor',
      name: 'example-metadata.jsonld',
      format: 'json-ld',
      contentType: 'application/ld+json',
    },
    turtle: {
      kind: 'turtle',
      name: 'example.ttl',
      format: 'text/turtle; charset=utf-8',
      contentType: 'text/turtle; charset=utf-8',
    },
    joined: {
      kind: 'joined',
      name: 'example-joined.ttl',
      format: 'text/turtle; charset=utf-8',
      contentType: 'text/turtle; charset=utf-8',
    },
  });
  assert.equal(descriptorAlias('example.csv'), 'example.csvw.json');
  assert.deepEqual(derivedReadings('example.csvw.json'), [{ kind: 'descriptor', base: 'example' }]);
  assert.deepEqual(derivedReadings('example.csv'), []);
  assert.deepEqual(derivedReadings('map.yaml'), []);
  assert.deepEqual(derivedReadings('x-joined.ttl'), [
    { kind: 'joined', base: 'x' },
    { kind: 'turtle', base: 'x-joined' },
  ]);
});

test('every derived name (and the alias) is read back as its kind and base', () => {
  const name = fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((s) => !/[/\\]/.test(s))
    .chain((stem) => fc.constantFrom('csv', 'tsv', 'txt', 'asc').map((ext) => `${stem}.${ext}`));
  fc.assert(
    fc.property(name, (fileName) => {
      const base = baseName(fileName);
      const names = derivedNames(fileName);
      for (const kind of ['descriptor', 'turtle', 'joined'] as const) {
        assert.ok(
          derivedReadings(names[kind].name).some((r) => r.kind === kind && r.base === base),
          names[kind].name,
        );
      }
      assert.deepEqual(derivedReadings(descriptorAlias(fileName)), [{ kind: 'descriptor', base }]);
      assert.equal(startsChain({ name: names.descriptor.name }), false);
      assert.equal(startsChain({ name: names.joined.name }), false);
    }),
  );
});
