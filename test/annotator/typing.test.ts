// The original's cell typing and name normalisation, against the research's documented cases
// (seed-services §1.7 and §1.9; the cases were measured on the original's code).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvNames, makeId } from '../../lib/annotator/index.ts';
import { parseDate } from '../../lib/annotator/dateparse.ts';
import { literalEval } from '../../lib/annotator/pyliteral.ts';
import { valueType } from '../../lib/annotator/value-type.ts';

describe('name normalisation (make_id)', () => {
  it('matches the research table', () => {
    // prettier-ignore
    const table: Record<string, string> = {
      Prüfzeit: 'Pruefzeit', 'Traverse abs.': 'TraverseAbs', 'Probenbreite b0': 'ProbenbreiteB0',
      'E-Modul': 'EModul', 'Maschine [mm]': 'MaschineMm', 'Drehmoment [Nm]': 'DrehmomentNm',
      'MX840A_0_CH 5 [°C]': 'Mx840A0Ch5C', 'Creep Stress [MPa]': 'CreepStressMpa',
      'DiskRadiusValue [px]': 'DiskradiusvaluePx', 'Unnamed: 0': 'Unnamed0', Position_Id: 'PositionId',
      'Strain µm': 'Strainm', 'Elongation [%]': 'Elongation', '1281068': '1281068',
      SpecimenName: 'Specimenname', ROIs: 'Rois', 'Messl\ufffdnge': 'MesslNge',
    };
    for (const [header, name] of Object.entries(table)) assert.equal(makeId(header), name, header);
  });
});

describe('cell typing (get_value_type)', () => {
  it('types cells as the original does', () => {
    // prettier-ignore
    const table: Record<string, string> = {
      '17': 'INT', '832.756': 'FLOAT', '0,5': 'FLOAT', '-25': 'INT', '0x1F': 'INT', '1_000': 'INT',
      '1e5': 'FLOAT', '"mm"': 'TEXT', 'nicht bekannt': 'TEXT', True: 'BOOL', true: 'TEXT', nan: 'TEXT',
      May: 'TEXT', '20.02.2008': 'DATE', '2024-01-15': 'DATE', '2024-1-15': 'TEXT', '12:30': 'DATE',
      '1.5.3': 'DATE', '1,000,000': 'TEXT', '192.168.33.70': 'TEXT', '46NTA5-1-1-2': 'TEXT',
      'https://example.org/x': 'URI', 'Stelle 10 DF 30s': 'TEXT', '5 s': 'DATE', '[mm]': 'TEXT', '': 'BLANK',
      '  ': 'BLANK',
    };
    for (const [cell, type] of Object.entries(table)) assert.equal(valueType(cell).type, type, cell);
  });

  it('reads day-first only where the day cannot be a month (dateutil)', () => {
    assert.equal(parseDate('20.02.2008'), '2008-02-20T00:00:00');
    assert.equal(parseDate('01.02.2008'), '2008-01-02T00:00:00');
    assert.equal(parseDate('24.08.2022,  11:55:02'), '2022-08-24T11:55:02');
    assert.equal(parseDate('2023-09-13T13:20:37.518565'), '2023-09-13T13:20:37.518565');
    assert.equal(parseDate('2020-01-01T12:00:00Z'), '2020-01-01T12:00:00+00:00');
    assert.equal(parseDate('Stelle 10'), undefined);
  });

  it("tells literal_eval's ValueError from its SyntaxError", () => {
    assert.equal(literalEval('a-b'), 'value-error');
    assert.equal(literalEval('07'), 'syntax-error');
    assert.deepEqual(literalEval('-(5)'), { kind: 'int', value: -5 });
    assert.deepEqual(literalEval('(1, 2)'), { kind: 'other' });
  });
});

describe('names derived from the CSV URL', () => {
  it('namespace, file name and download name', () => {
    assert.deepEqual(csvNames('https://host/dir/example.csv'), {
      fileName: 'example.csv',
      namespace: 'https://host/dir/example.csv/',
      metadataFileName: 'example-metadata.json',
    });
    assert.equal(csvNames('https://host/dir/a%20b.csv?x=1#f').namespace, 'https://host/dir/a%20b.csv/');
    assert.equal(csvNames('https://ckan/dataset/1/resource/2/download/upload.csv').fileName, '2');
  });
});
