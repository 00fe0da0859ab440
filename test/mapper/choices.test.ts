// The mapping builder's suggestions (issue 28): for each column or metadata row, the template
// individuals whose names are near its text or hold it. Expected lists written from the names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdsText, mappingChoices, suggestIndividuals, type EntityList } from '../../lib/mapper/index.ts';
import { readJson } from './support.ts';

/** The DIN EN ISO 527-3 template's 35 individuals, as MapToMethod lists them. */
const template = readJson(
  'maptomethod/simulated/entities-DIN_EN_ISO_527-3-namedindividual.json',
) as EntityList;
const individuals = Object.keys(template.entities);

test('a text near an individual name suggests it first (case, spaces and umlauts folded)', () => {
  assert.deepEqual(suggestIndividuals('Specimen ID', individuals), [
    'SpecimenID',
    'Specimen',
    'SpecimenWidth',
  ]);
  assert.deepEqual(suggestIndividuals('operator', individuals), ['Operator', 'OperatorID']);
  assert.deepEqual(suggestIndividuals('Caliper-Id', individuals), ['CaliperID', 'Caliper']);
});

test('a text an individual name holds suggests the shortest such names', () => {
  assert.deepEqual(suggestIndividuals('Force', individuals), [
    'ForceMeasurement',
    'ForceMeasurementCapability',
  ]);
  assert.deepEqual(suggestIndividuals('Width', individuals), ['SpecimenWidth', 'WidthMeasurement']);
});

test('nothing near, nothing suggested; a name the text holds is none; two letters are held by nothing', () => {
  assert.deepEqual(suggestIndividuals('Standardkraft', individuals), []);
  assert.deepEqual(suggestIndividuals('Dehnung', individuals), []);
  assert.deepEqual(suggestIndividuals('ID', individuals), []);
  assert.deepEqual(suggestIndividuals('', individuals), []);
});

test('choices: every named column, then every metadata row, each with its suggestions', () => {
  const data = readJson('maptomethod/simulated/entities-example-metadata.json') as EntityList;
  const choices = mappingChoices(data, template);
  assert.equal(choices.length, 22);
  assert.deepEqual(
    choices.slice(0, 6).map((c) => [c.entity, c.text, c.kind]),
    [
      ['table-1-GID', 'GID', 'column'],
      ['table-1-Pruefzeit', 'Pruefzeit', 'column'],
      ['table-1-Standardweg', 'Standardweg', 'column'],
      ['table-1-Standardkraft', 'Standardkraft', 'column'],
      ['table-1-Dehnung', 'Dehnung', 'column'],
      ['table-1-TraverseAbs', 'TraverseAbs', 'column'],
    ],
  );
  assert.deepEqual(choices[6], {
    entity: 'AktuelleProbe0',
    text: 'aktuelle Probe',
    kind: 'annotation',
    suggestions: [],
    preselected: '',
  });
  // Near names are suggested, not chosen: the person decides.
  const pick = (entity: string) => choices.find((c) => c.entity === entity)!;
  assert.deepEqual(pick('table-1-TraverseAbs').suggestions, ['Traverse', 'TraverseID']);
  assert.equal(pick('table-1-TraverseAbs').preselected, '');
  assert.deepEqual(pick('table-1-Standardweg').suggestions, ['Standard']);
  assert.equal(pick('table-1-Standardweg').preselected, '');
});

test('a suggestion is chosen before the person looks only when its name holds the whole text', () => {
  assert.equal(holdsText('SpecimenID', 'Specimen ID'), true);
  assert.equal(holdsText('ForceMeasurement', 'force'), true);
  assert.equal(holdsText('Standard', 'Standardweg'), false);
  assert.equal(holdsText('Traverse', 'TraverseAbs'), false);
  assert.equal(holdsText('CaliperID', 'ID'), false);
});

test('an entity with no label or name is left out: no rule can match on it', () => {
  const data: EntityList = {
    base_namespace: 'http://x/',
    entities: {
      a: { uri: 'http://x/a', type: 'http://www.w3.org/ns/csvw#Column' },
      b: { uri: 'http://x/b', property: 'name', text: 'Force', type: 'http://www.w3.org/ns/csvw#Column' },
    },
  };
  assert.deepEqual(mappingChoices(data, template), [
    {
      entity: 'b',
      text: 'Force',
      kind: 'column',
      suggestions: ['ForceMeasurement', 'ForceMeasurementCapability'],
      preselected: 'ForceMeasurement',
    },
  ]);
});
