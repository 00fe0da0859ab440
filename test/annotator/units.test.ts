// Unit recognition against the research's measured table (seed-services §1.8), the spec's
// table ("Unit detection") and the spec's suffix notation, which the original lacks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suffixUnitOf, unitOf } from '../../lib/annotator/index.ts';
import { annotateBytes } from './support.ts';

const local = (token: string): string | undefined =>
  unitOf(token)?.['@id'].replace('http://qudt.org/vocab/unit/', '');

describe('unit lookup (QUDT symbol, then UCUM code)', () => {
  it("matches the spec's table", () => {
    assert.deepEqual(['s', 'mm', 'kN', '°C', 'MPa', 'µm'].map(local), [
      'SEC',
      'MilliM',
      'KiloN',
      'DEG_C',
      'MegaPA',
      'MicroM',
    ]);
  });

  it('matches the measured results of the original (research §1.8)', () => {
    // prettier-ignore
    const table: Record<string, string> = {
      '[s]': 'SEC', '(s)': 'SEC', sec: 'SEC', '[°C]': 'DEG_C', 'Â°C': 'DEG_C', 'N/mm2': 'MegaPA',
      'N/mm²': 'MegaPA', um: 'MicroM', Nm: 'N-M', 'N.m': 'N-M', kNm: 'KiloN-M', 'kN.m': 'KiloN-M',
      '%': 'PERCENT', 'mm/min': 'MilliM-PER-MIN', 'mm/s': 'MilliM-PER-SEC', h: 'HR', min: 'MIN', d: 'DAY',
      g: 'GM', t: 'TONNE', V: 'V', A: 'A', K: 'K', N: 'N', Pa: 'PA', GPa: 'GigaPA', bar: 'BAR', kg: 'KiloGM',
      Hz: 'HZ', '°': 'DEG', deg: 'DEG', rad: 'RAD', m: 'M', l: 'L', L: 'L', ms: 'MilliSEC', µs: 'MicroSEC',
      'mm²': 'MilliM2', 'kg/m3': 'KiloGM-PER-M3', 'm/s': 'M-PER-SEC', 'm/s²': 'M-PER-SEC2', Ohm: 'OHM',
      Ω: 'OHM', '°F': 'DEG_F',
    };
    for (const [token, unit] of Object.entries(table)) assert.equal(local(token), unit, token);
    for (const token of ['0', '5', '10', 'px', '-', 'rpm', '1/s', 'kN/s', '%L0/min', 'IP65']) {
      assert.equal(local(token), undefined, token);
    }
  });

  it('reads Bose WinTest\'s unit word "Sec" as seconds, and no other word so', () => {
    assert.equal(unitOf('Sec')?.['@id'], 'http://qudt.org/vocab/unit/SEC');
    assert.equal(unitOf('Section'), undefined);
  });

  it('gives the unit class as @type (first rdf:type in the vocabulary)', () => {
    assert.equal(unitOf('mm')?.['@type'], 'http://qudt.org/schema/qudt/DerivedUnit');
    assert.equal(unitOf('kN')?.['@type'], 'http://qudt.org/schema/qudt/Unit');
  });
});

describe('suffix units (spec: ForceMPa → MegaPA, DisplacementMm → MilliM)', () => {
  it('finds common abbreviations glued to a CamelCase name', () => {
    assert.equal(suffixUnitOf('ForceMPa')?.['@id'], 'http://qudt.org/vocab/unit/MegaPA');
    assert.equal(suffixUnitOf('DisplacementMm')?.['@id'], 'http://qudt.org/vocab/unit/MilliM');
    assert.equal(suffixUnitOf('TempDegC')?.['@id'], 'http://qudt.org/vocab/unit/DEG_C');
    assert.equal(suffixUnitOf('LoadKN')?.['@id'], 'http://qudt.org/vocab/unit/KiloN');
  });

  it('does not read units into ordinary words', () => {
    for (const header of ['SampleA', 'ForceMin', 'Speed', 'Position', 'Displacement', 'Mm']) {
      assert.equal(suffixUnitOf(header), undefined, header);
    }
  });

  it('annotates the column without changing its normalised name', async () => {
    const { descriptor } = await annotateBytes('ForceMPa;DisplacementMm;Time [s]\n1,5;2,5;3\n2,5;3,5;4\n');
    const columns = descriptor.tables[0]?.tableSchema.columns.slice(1) ?? [];
    assert.deepEqual(
      columns.map((c) => [c['name'], (c['qudt:unit'] as { '@id': string } | undefined)?.['@id']]),
      [
        ['Forcempa', 'http://qudt.org/vocab/unit/MegaPA'],
        ['Displacementmm', 'http://qudt.org/vocab/unit/MilliM'],
        ['TimeS', 'http://qudt.org/vocab/unit/SEC'],
      ],
    );
  });
});

describe('units of metadata rows (QUDT-annotated quantity values)', () => {
  it('takes the unit from the label, a unit word in the cell, or a unit cell after the value', async () => {
    const { descriptor } = await annotateBytes('Breite [mm]:  11.4\nDauer:  5 s\nKraft\t12\tkN\n');
    const units = descriptor.notes.map(
      (n) => (n['oa:hasBody'][0] as Record<string, { '@id': string }>)['qudt:unit']?.['@id'],
    );
    assert.deepEqual(units, [
      'http://qudt.org/vocab/unit/MilliM',
      'http://qudt.org/vocab/unit/SEC',
      'http://qudt.org/vocab/unit/KiloN',
    ]);
    assert.deepEqual(
      descriptor.notes.map((n) => n.label),
      ['Breite', 'Dauer', 'Kraft'],
    );
  });
});
