// Two real machine-export shapes (our own small files, fixtures/): an Instron Bluehill export
// (windows-1250, `;`, every value quoted with a decimal comma, key;"value";unit metadata, a
// blank line, a header and a unit row in parentheses) and a tab-separated `.ASC` export whose
// rows end in a tab, one field more than the header. Each must give one table.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import iconv from 'iconv-lite';
import { describe, it } from 'node:test';
import { lineSeparator } from '../../lib/annotator/separators.ts';
import { annotateBytes, annotateFile } from './support.ts';
import { sharedDir } from '../support/shared.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const QUDT = 'http://qudt.org/vocab/unit/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const DOUBLE = `${XSD}double`;

interface Col {
  name: string;
  titles: string[];
  'qudt:unit'?: { '@id': string };
  format?: { '@id': string };
  datatype?: unknown;
}
interface Tables {
  notes?: unknown[];
  tables?: { dialect: Record<string, unknown>; tableSchema: { columns: Col[] } }[];
}

/** The descriptor's only table and its columns after GID. */
function oneTable(descriptor: unknown) {
  const d = descriptor as Tables;
  assert.equal(d.tables?.length, 1);
  const table = d.tables![0]!;
  return { d, table, columns: table.tableSchema.columns.slice(1) };
}

describe('machine exports', () => {
  it('separators inside quoted fields do not count when a line chooses its separator', () => {
    assert.deepEqual(lineSeparator('"0,00000";"0,00833";"12,34500";"0,00012"\r\n'), { sep: ';', count: 3 });
    assert.deepEqual(lineSeparator('Uwagi;"próbka 1, seria A; kondycjonowana";\r\n'), { sep: ';', count: 2 });
    assert.deepEqual(lineSeparator('a,"x;y;z",b\n'), { sep: ',', count: 2 });
    // A doubled quote stays inside the field; an unclosed quote counts every separator.
    assert.deepEqual(lineSeparator('"say ""a;b""";1\n'), { sep: ';', count: 1 });
    assert.deepEqual(lineSeparator('5" pipe;1;2;3\n'), { sep: ';', count: 3 });
    assert.deepEqual(lineSeparator('"open;1;2\n'), { sep: ';', count: 2 });
  });

  it('Bluehill (windows-1250, quoted decimal commas, unit row): one table, units from the unit row, decimalChar ","', async () => {
    const { descriptor } = await annotateFile(
      fixture('bluehill-pl.csv'),
      'http://example.org/bluehill-pl.csv',
      {
        encoding: 'windows-1250',
      },
    );
    const { d, table, columns } = oneTable(descriptor);
    assert.deepEqual(table.dialect, {
      delimiter: ';',
      skipRows: 9,
      headerRowCount: 2,
      encoding: 'windows-1250',
    });
    assert.deepEqual(
      columns.map((c) => c.titles.slice(0, 2)),
      [
        ['Czas', '(s)'],
        ['Przemieszczenie', '(mm)'],
        ['Siła', '(N)'],
        ['Odkształcenie rozciągające', '(mm/mm)'],
      ],
    );
    assert.deepEqual(
      columns.map((c) => c['qudt:unit']?.['@id']),
      [`${QUDT}SEC`, `${QUDT}MilliM`, `${QUDT}N`, `${QUDT}FRACTION`],
    );
    for (const c of columns) {
      assert.deepEqual(c.format, { '@id': DOUBLE }, c.name);
      assert.deepEqual(c.datatype, { base: 'double', format: { decimalChar: ',' } }, c.name);
    }
    // The metadata block stays notes: 8 key;"value";unit lines.
    assert.equal(d.notes?.length, 8);
  });

  it('.ASC with a trailing tab on every row: the header names the columns, units from the brackets', async () => {
    const { descriptor } = await annotateFile(fixture('tensile.ASC'), 'http://example.org/tensile.ASC');
    const { d, table, columns } = oneTable(descriptor);
    assert.deepEqual(d.notes ?? [], []);
    assert.deepEqual(table.dialect, { delimiter: '\t', skipRows: 0, headerRowCount: 1, encoding: 'latin-1' });
    assert.deepEqual(
      columns.map((c) => c.titles[0]),
      [
        'Zeit  1 - Standardmessrate [s]',
        'Kraft [N]',
        'Weg [mm]',
        'Dehnung [%]',
        'Spannung [MPa]',
        'Traversenweg [mm]',
        'Temperatur [°C]',
        'Breite [mm]',
        'Dicke [mm]',
      ],
    );
    assert.deepEqual(
      columns.map((c) => c['qudt:unit']?.['@id'].replace(QUDT, '')),
      ['SEC', 'N', 'MilliM', 'PERCENT', 'MegaPA', 'MilliM', 'DEG_C', 'MilliM', 'MilliM'],
    );
    for (const c of columns) assert.deepEqual(c.format, { '@id': DOUBLE }, c.name);
  });

  it('a decimal-comma column with a whole number among its decimals is double (the original made it text)', async () => {
    // As MTS TestSuite writes time: `0,93…` then `1` then `1,05…` (tab, unquoted, decimal comma).
    const rows = ['0,86', '0,93', '1', '1,06', ...Array.from({ length: 20 }, (_, i) => `${i + 2},5`)];
    const csv = `_Load \t_Time\nkN\tsec\n${rows.map((t, i) => `${i},25\t${t}`).join('\n')}\n`;
    const { descriptor } = await annotateBytes(csv);
    const { columns } = oneTable(descriptor);
    assert.deepEqual(
      columns.map((c) => [c.titles[0], c.format?.['@id']]),
      [
        ['_Load ', DOUBLE],
        ['_Time', DOUBLE],
      ],
    );
  });

  it('English Bluehill, every number quoted with thousands grouped: one table, groupChar ",", the results block notes', async () => {
    const file = `${sharedDir}fixtures/real-exports/instron-bhq-Specimen_RawData_1.csv`;
    const { descriptor } = await annotateFile(file, 'http://example.org/bhq.csv');
    const { d, table, columns } = oneTable(descriptor);
    // 8 result lines and a blank above the header and the unit row.
    assert.deepEqual(table.dialect, { delimiter: ',', skipRows: 9, headerRowCount: 2, encoding: 'ascii' });
    // Each column's header and unit-row titles.
    const titles = columns.map((c) => `${c.titles[0]} ${c.titles[1]}`);
    assert.deepEqual(titles, [
      'Time (s)',
      'Extension (mm)',
      'Load (N)',
      'Tensile strain (Strain 1) (%)',
      'Tensile stress (MPa)',
    ]);
    for (const c of columns) {
      assert.deepEqual(c.format, { '@id': DOUBLE }, c.name);
      assert.deepEqual(c.datatype, { base: 'double', format: { decimalChar: '.', groupChar: ',' } }, c.name);
    }
    assert.equal(d.notes?.length, 8);
  });

  it('a CP932 logger export whose only Japanese is its header line is read as Shift_JIS (chardet ranks windows-1252 first)', async () => {
    const file = `${sharedDir}fixtures/real-exports/logger-jp-H300CP_No1.csv`;
    const { descriptor, encoding } = await annotateFile(file, 'http://example.org/logger.csv');
    assert.equal(encoding, 'shift_jis');
    const { table, columns } = oneTable(descriptor);
    // The title line `H300-CP-No.1`, then the header with units after a space.
    const dialect = { delimiter: ',', skipRows: 1, headerRowCount: 1, encoding: 'shift_jis' };
    assert.deepEqual(table.dialect, dialect);
    assert.deepEqual(
      columns.map((c) => c.titles[0]),
      [
        '名前',
        '測定日時 ',
        '荷重 kN',
        '変位 mm',
        '表-縦 μ',
        '表-横 μ',
        '裏-縦 μ',
        '裏-横 μ',
        '縦-平均 μ',
        '横-平均 μ',
      ],
    );
    assert.deepEqual(
      columns.slice(2, 4).map((c) => c['qudt:unit']?.['@id']),
      [`${QUDT}KiloN`, `${QUDT}MilliM`],
    );
    // Latin text in windows-1252 is not taken for Shift_JIS: an accented letter before ASCII.
    const latin = iconv.encode(
      'Prüfer;Kh\nHöhe [mm];98,6\nWürfel;1\n\nZeit [s];Kraft [kN]\n1;2\n3;4\n',
      'windows-1252',
    );
    assert.notEqual((await annotateBytes(latin)).encoding, 'shift_jis');
  });

  it("Keyence NR-500: a unit in brackets right after the name, no space (`日時(μs)`), is the column's unit", async () => {
    const file = `${sharedDir}fixtures/real-exports/keyence-nr500-jp-instron.csv`;
    const { descriptor } = await annotateFile(file, 'http://example.org/keyence.csv');
    const d = descriptor as unknown as Tables;
    // The 57-line header ends in the header row `#EndHeader,日時(μs),(1)HA-V01` (line 57).
    const table = d.tables!.at(-1)!;
    assert.equal(table.dialect.skipRows, 56);
    assert.deepEqual(
      table.tableSchema.columns.slice(1).map((c) => [c.titles[0], c['qudt:unit']?.['@id']]),
      [
        ['#EndHeader', undefined],
        ['日時(μs)', `${QUDT}MicroSEC`],
        ['(1)HA-V01', undefined],
      ],
    );
  });

  it("Bose WinTest's second acquisition block, without a header of its own, has the first block's columns", async () => {
    const file = `${sharedDir}fixtures/real-exports/bose-wintest-bose_export_block.TXT`;
    const { descriptor } = await annotateFile(file, 'http://example.org/bose_block.TXT');
    const d = descriptor as unknown as Tables;
    // Block 1: header line 4, units line 5, rows 6–4105; a spaces-only line; block 2 from 4107.
    assert.deepEqual(
      d.tables?.map((t) => [t.dialect.skipRows, t.dialect.headerRowCount]),
      [
        [3, 2],
        [4106, 0],
      ],
    );
    for (const table of d.tables!) {
      assert.deepEqual(
        table.tableSchema.columns.slice(1, 4).map((c) => [c.titles[0]?.trim(), c['qudt:unit']?.['@id']]),
        [
          ['Elapsed Time', `${QUDT}SEC`],
          ['Disp', `${QUDT}MilliM`],
          ['Load', `${QUDT}N`],
        ],
      );
    }
  });

  it('a NUL byte of padding does not make a text export binary (Bose WinTest ends line 1 with one)', async () => {
    const file = `${sharedDir}fixtures/real-exports/bose-wintest-bose_export.TXT`;
    const { descriptor } = await annotateFile(file, 'http://example.org/bose.TXT');
    const { table, columns } = oneTable(descriptor);
    // The data file's path with its NUL, a blank line, then the quoted header and unit rows.
    assert.deepEqual(table.dialect, { delimiter: ',', skipRows: 2, headerRowCount: 2, encoding: 'ascii' });
    assert.deepEqual(
      columns.slice(0, 4).map((c) => [c.titles[0]?.trim(), c.titles[1]?.trim(), c.format?.['@id']]),
      [
        ['Elapsed Time', 'Sec', DOUBLE],
        ['Disp', 'mm', DOUBLE],
        ['Load', 'N', DOUBLE],
        ['UserCalc1', 'V', DOUBLE],
      ],
    );
    // Compressed or random bytes (about 1 in 256 a NUL) are still binary.
    await assert.rejects(annotateBytes(randomBytes(70_000)), /this is a binary file/);
  });

  it("UBM DMA: settings padded to the table's width above its header are notes, the header and unit rows name the columns", async () => {
    const file = `${sharedDir}fixtures/real-exports/ubm-dma-jp-dma.csv`;
    const { descriptor } = await annotateFile(file, 'http://example.org/dma.csv');
    const { d, table, columns } = oneTable(descriptor);
    // Every line has 35 fields. Lines 1–27: settings, key first (`"ﾊﾞｰｼﾞｮﾝ","Ver1.0",…`);
    // line 28 the header, line 29 the units (`ﾟC`: the degree sign as half-width katakana).
    const { skipRows, headerRowCount, encoding } = table.dialect;
    assert.deepEqual([skipRows, headerRowCount, encoding], [27, 2, 'shift_jis']);
    assert.deepEqual(
      columns.slice(0, 7).map((c) => [c.titles[0], c.titles[1], c['qudt:unit']?.['@id'], c.format?.['@id']]),
      [
        ['TOTAL', 'Unnamed: 0_level_1', undefined, `${XSD}integer`],
        ['BL', 'Unnamed: 1_level_1', undefined, `${XSD}integer`],
        ['No', 'Unnamed: 2_level_1', undefined, `${XSD}integer`],
        ['TEMP', 'ﾟC', `${QUDT}DEG_C`, DOUBLE],
        ['FREQ.', 'Hz', `${QUDT}HZ`, `${XSD}integer`],
        ['ω', 'rad/sec', `${QUDT}RAD-PER-SEC`, DOUBLE],
        ["E'", 'Pa', `${QUDT}PA`, DOUBLE],
      ],
    );
    assert.deepEqual(columns.at(-1)!.titles.slice(0, 2), ['*', '*']);
    const notes = d.notes as { label: string; 'oa:hasBody': { 'oa:value'?: string }[] }[];
    assert.equal(notes[0]!.label, 'ﾊﾞｰｼﾞｮﾝ');
    assert.equal(notes[0]!['oa:hasBody'][0]!['oa:value'], 'Ver1.0');
    // Not split: an all-text row among records with a text first column (a name after it), or
    // one line above the all-text run (example4's header with sensor serials, kept as data).
    for (const csv of [
      'S1,1.5,2\nS2,2.5,3\nS3,n/a,n/a\nS4,1,2\n5,6,7\n',
      'a,b,1281068\nmm,s,kN\n1,2,3\n4,5,6\n',
    ]) {
      const { table: kept } = oneTable((await annotateBytes(csv)).descriptor);
      assert.deepEqual([kept.dialect.skipRows, kept.dialect.headerRowCount], [0, 0], csv);
    }
  });
});
