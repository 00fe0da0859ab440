// The machine exports of the real-exports corpus test (real-exports.e2e.test.ts) and what each
// holds: every number, name and unit below was written by hand from reading the file (its
// header, unit row, first and last data lines, line numbers from `wc -l`, `iconv -f CP932`,
// `cat -A`), never from labld's output.
import { sharedDir } from '../support/shared.ts';

const REAL = `${sharedDir}fixtures/real-exports/`;

/** A cell as the datastore gives it: a number, a timestamp's text, or null. */
export type Cell = number | string | null;

export interface Expected {
  file: string;
  rows: number;
  /** Per column: the datastore field, its unit (QUDT name, or none), its type (default numeric). */
  columns: [field: string, unit: string | undefined, type?: string][];
  first: Cell[];
  last: Cell[];
  /** A last field that every line leaves empty (a trailing separator), as pandas names it. */
  empty?: string;
  /** The resource's format, for an extension that does not start the chain by itself (`.dat`). */
  format?: string;
  /** The descriptor's tables (default 1) and the one import keeps (default the first). */
  tables?: number;
  table?: number;
  /** The rows describe writes, of every table (default `rows`). */
  described?: number;
}

export const CASES: Expected[] = [
  {
    // Our own Polish Bluehill file (windows-1250, `;`, every value quoted with a decimal comma).
    file: new URL('../annotator/fixtures/bluehill-pl.csv', import.meta.url).pathname,
    rows: 30,
    columns: [
      ['Czas', 'SEC'],
      ['Przemieszczenie', 'MilliM'],
      ['Siła', 'N'],
      ['Odkształcenie rozciągające', 'FRACTION'],
    ],
    first: [0, 0, 0.27211, 0],
    last: [2.9, 0.02416, 1174.77211, 0.00481],
  },
  {
    // Instron Bluehill 2 RawData: 2 metadata lines, blank, header, units `(sec),(mm),(N),,`.
    file: `${REAL}instron-bh2-Specimen_RawData_6.csv`,
    rows: 18_011,
    columns: [
      ['Time', 'SEC'],
      ['Extension', 'MilliM'],
      ['Load', 'N'],
      ['Segment ID', undefined],
      ['Total Cycle Count', undefined],
    ],
    first: [0, -2.04726, -4.319, 22476, 0],
    last: [360.06, -2.04555, 0.28068, 22412, 2],
  },
  {
    // Instron Bluehill with a results block (`name,"value",unit`), every number quoted, thousands
    // grouped by commas (`"9,286.44727"`): 1478 lines less 8 results, a blank, header and units.
    file: `${REAL}instron-bhq-Specimen_RawData_1.csv`,
    rows: 1467,
    columns: [
      ['Time', 'SEC'],
      ['Extension', 'MilliM'],
      ['Load', 'N'],
      ['Tensile strain (Strain 1)', 'PERCENT'],
      ['Tensile stress', 'MegaPA'],
    ],
    first: [0, 0.01731, 462.86465, -0.0002, 22.2708],
    last: [164.708, 2.4455, 8413.95215, 3.216, 404.8385],
  },
  {
    // Bose WinTest: line 1 the data file's path and a NUL, a blank line, quoted space-padded
    // header and unit rows, right-aligned values, a trailing comma on every line; 14446 lines.
    file: `${REAL}bose-wintest-bose_export.TXT`,
    rows: 14_442,
    columns: [
      ['Elapsed Time ', 'SEC'],
      ['Disp      ', 'MilliM'],
      ['Load   ', 'N'],
      ['UserCalc1', 'V'],
    ],
    first: [0, -6.02458, -0.73, 0],
    last: [72.205, 5.998793, -0.67, 0],
    empty: 'Unnamed: 4_level_0',
  },
  {
    // MTS TestSuite, Italian Windows: tab, decimal comma, BOM; `_Extension ` (a datastore id may
    // not start with `_`: the column's name without it).
    file: `${REAL}mtsts-it-5D.txt`,
    rows: 4105,
    columns: [
      ['Extension', 'MilliM'],
      ['Load', 'KiloN'],
      ['Time', 'SEC'],
      ['Strain1', 'MilliM'],
    ],
    first: [-0.000978064008450019, 0.0116459608078003, 0.129999995231628, 0.00385194562113611],
    last: [-4.5605730265379, 0.00312162280082703, 273.730010986328, 1.88270723447204],
  },
  {
    // MTS TestSuite, German: `;`, every field quoted, decimal comma, exponents, sensor serials.
    file: `${REAL}mtsts-de-Datenerfassung-Zeit; … - (Zeitgetaktet).csv`,
    rows: 950,
    columns: [
      ['Zeit ', 'SEC'],
      ['Laufzeit ', 'SEC'],
      ['Ch 1 Kraft Sollwert ', 'KiloN'],
      ['Ch 1 Kraft ', 'KiloN'],
      ['Ch 1 Weg ', 'MilliM'],
      ['1470533 ', 'MilliM'],
      ['1470534 ', 'MilliM'],
      ['1470535 ', 'MilliM'],
      ['1281068 ', 'MilliM'],
    ],
    first: [
      159.8212890625, 125.44140625, -40.39783984375, -40.41028125, -0.00757277030061232,
      -0.000532342369297112, -0.00153356609189359, -0.00252810355050315, -0.11404025281081,
    ],
    last: [
      349.806640625, 315.4267578125, -40.39783984375, -40.343453125, -0.0145405529110576,
      -0.00230927048505691, -0.00262740809375828, -0.00302765511150938, -0.114144975668751,
    ],
  },
  {
    // MTS 793 (latin-1, tab, decimal comma): a `|` locale line, the operator's key/value block
    // (`Probebezeichnung<TAB>Wolf 8.2 Probe 2` heads 4 more pairs), then two `Datenerfassung`
    // blocks, each with a header and a unit row: 2 rows of 2 columns, then 455 rows of 6 (lines
    // 22–476). `d`: Excel serial days and day fractions.
    file: `${REAL}mts793-de-druck-specimen.dat`,
    format: 'TSV',
    rows: 455,
    tables: 3,
    table: 2,
    described: 4 + 2 + 455,
    columns: [
      ['Datum', 'DAY'],
      ['Tageszeit', 'DAY'],
      ['Laufzeit', 'SEC'],
      ['Ch 1 Kraft Sollwert', 'KiloN'],
      ['Ch 1 Kraft', 'KiloN'],
      ['Ch 1 Weg', 'MilliM'],
    ],
    first: [42032, 0.44002584, 81.230469, -1.750293, -1.4235973, -0.0027924776],
    last: [42032, 0.44107777, 172.11914, -356.15137, 0.10281429, -6.843832],
  },
  {
    // Shimadzu Trapezium (CP932, LF): the test settings (header and 1 row), title, the shape
    // (header and 1 row, then the 5-field specimen table, text first, with no blank line), the
    // specimen name, header line 19 `"時間","試験力","ｽﾄﾛｰｸ",`, units line 20, 5598 rows
    // (lines 21–5618) ending in a comma, time quoted, `-.046875`.
    file: `${REAL}shimadzu-jp-agis.csv`,
    rows: 5598,
    tables: 3,
    table: 2,
    described: 1 + 1 + 5598,
    columns: [
      ['時間', 'SEC'],
      ['試験力', 'N'],
      ['ｽﾄﾛｰｸ', 'MilliM'],
    ],
    first: [0, -0.046875, 0],
    last: [279.85, -0.015625, 46.632],
    empty: 'Unnamed: 3_level_0',
  },
  {
    // Keyence NR-500 (CP932, no final newline): a 57-line header in which two blocks read as
    // tables (`サンプリング周期,50ms` and 2 rows; 5 trigger lines and `ポイント数,0`), the header
    // row `#EndHeader,日時(μs),(1)HA-V01` (line 57), 4347 rows, then the `#BeginMark` trailer.
    // The channel's unit `V` is in the channel block (line 36), not in its header.
    file: `${REAL}keyence-nr500-jp-instron.csv`,
    rows: 4347,
    tables: 3,
    table: 2,
    described: 2 + 1 + 4347,
    columns: [
      ['#EndHeader', undefined, 'timestamp'],
      ['日時(μs)', 'MicroSEC'],
      ['(1)HA-V01', undefined],
    ],
    first: ['2023-05-17T16:37:36', 900000, -0.096],
    last: ['2023-05-17T16:41:14', 200000, -0.096],
  },
  {
    // A Japanese static logger (CP932, LF): a title line, then one header row with units after a
    // space (`荷重 kN`; `μ` alone is the gauges' microstrain, no unit), `測定日時 ` with a trailing
    // space, 481 rows.
    file: `${REAL}logger-jp-H300CP_No1.csv`,
    rows: 481,
    columns: [
      ['名前', undefined],
      ['測定日時 ', undefined, 'timestamp'],
      ['荷重 kN', 'KiloN'],
      ['変位 mm', 'MilliM'],
      ['表-縦 μ', undefined],
      ['表-横 μ', undefined],
      ['裏-縦 μ', undefined],
      ['裏-横 μ', undefined],
      ['縦-平均 μ', undefined],
      ['横-平均 μ', undefined],
    ],
    first: [1, '2019-11-01T17:06:57', 0.064, -0.004, -0.947867, 0.947418, 0.947867, 0.947867, 0, 0.947643],
    last: [
      481,
      '2019-11-01T17:16:17',
      4.248,
      29.04,
      1.76034e6,
      -4396.97,
      1.76025e6,
      -32302.4,
      1.76029e6,
      -18349.7,
    ],
  },
  {
    // Bose WinTest with two acquisition blocks: path + NUL, a blank and a spaces-only line, the
    // header and unit rows, block 1 of 4100 rows (lines 6–4105), a spaces-only line, then
    // block 2 of 500 rows (lines 4107–4606) without a header of its own.
    file: `${REAL}bose-wintest-bose_export_block.TXT`,
    rows: 4100,
    tables: 2,
    described: 4100 + 500,
    columns: [
      ['Elapsed Time ', 'SEC'],
      ['Disp      ', 'MilliM'],
      ['Load   ', 'N'],
    ],
    first: [0, -3.408259, 0],
    last: [40.99, -3.408156, 0],
    empty: 'Unnamed: 3_level_0',
  },
  {
    // MTS 793 E-modulus (latin-1, tab, decimal comma): the locale line, the operator block, then
    // six `Datenerfassung` blocks. Each block's header row (line 14 of the first) ends in sensor
    // serials (`1944 B`, `1281068`, `2157`) above the unit row `d s kN kN mm mm mm mm`: byte for
    // byte example4's lines 14–15 (seed-examples/csvtocsvw), which the original reads as data,
    // columns `0`…`7` of text — the known limitation users' mappings match. No rule tells the
    // two apart (af6e767, reverted in 84a0ea3), so this file gets the original's reading too:
    // header and unit rows are the first two rows, every column text, no units. Not the file's
    // meaning (`Laufzeit` in s, forces in kN); what the original gives for that header. Import
    // keeps the first of four 1028-line blocks: lines 14–1039, header, units, 1024 rows. The
    // fifth block has 987 rows, the sixth (5 columns) 2.
    file: `${REAL}mts793-de-emodul-specimen.dat`,
    format: 'TSV',
    rows: 2 + 1024,
    tables: 6,
    described: 4 * 1026 + (2 + 987) + (2 + 2),
    columns: ['0', '1', '2', '3', '4', '5', '6', '7'].map((name) => [name, undefined, 'text']),
    first: [
      'Datum',
      'Laufzeit',
      'Ch 1 Kraft Sollwert',
      'Ch 1 Kraft',
      'Ch 1 Weg',
      '1944 B',
      '1281068',
      '2157',
    ],
    last: [
      '41883',
      '525,9082',
      '-1',
      '-0,95350111',
      '-0,014519691',
      '-0,0030817837',
      '-0,0033255932',
      '-0,0031947009',
    ],
  },
  {
    // UBM Rheogel DVE-V4 DMA (CP932, CRLF): every line has 35 fields, so its 27 lines of
    // settings (key/value groups side by side, NULs inside quoted fields) share the table's
    // part; the header is line 28 (`"TOTAL","BL","No","TEMP",…,"*"`), the units line 29
    // (`"","","","ﾟC","Hz",…`), 301 rows on lines 30–330. `ﾟC` is the half-width katakana
    // handakuten standing for the degree sign; `Mpa` (MPa or mPa?), `v`, `ODISP`, `1/Pa`
    // (QUDT's symbol is `/Pa`) and `gf/mm` name no unit. S.STRESS and N.STRESS are empty in
    // every row (text). The second `DISP` takes its name `Disp` (a field id is unique).
    file: `${REAL}ubm-dma-jp-dma.csv`,
    rows: 301,
    columns: [
      ['TOTAL', undefined],
      ['BL', undefined],
      ['No', undefined],
      ['TEMP', 'DEG_C'],
      ['FREQ.', 'HZ'],
      ['ω', 'RAD-PER-SEC'],
      ["E'", 'PA'],
      ["E ''", 'PA'],
      ['E*', 'PA'],
      ['tanδ', undefined],
      ["η'", 'PA-SEC'],
      ["η''", 'PA-SEC'],
      ['η * ', 'PA-SEC'],
      ['Time', 'SEC'],
      ['DISP', 'MicroM'],
      ['Disp', 'PERCENT'],
      ['FORCE', 'GM'],
      ['LOAD', 'GM'],
      ['C.D', 'CentiM'],
      ['PHASE', 'DEG'],
      ['応力', undefined],
      ['S.STRESS', 'PA', 'text'],
      ['N.STRESS', 'PA', 'text'],
      ['REVL', undefined],
      ['HUMIDITY ', 'PERCENT'],
      ['F/L', undefined],
      ['Ld', 'MilliM'],
      ['TempB', undefined],
      ['TempC', 'A'],
      ['J*', undefined],
      ["J'", undefined],
      ["J''", undefined],
      [' W ', undefined],
      [' TempC', undefined],
      ['*', undefined, 'text'],
    ],
    // prettier-ignore
    first: [
      1, 1, 1, -149.6, 10, 62.83185308, 5.574125e9, 3.682787e8, 5.586277e9, 6.606933e-2, 1953779,
      2.957165e7, 2.963612e7, 265.3594, 2.547478, 1.105573e-2, 379.4072, -1065.879, 2.304216, 3.78,
      0.6176035, null, null, 3.021737, 0, 148.9344, 0.33777, 0, 0, 1.790101e-10, 1.786207e-10,
      1.180135e-11, 0.3208916, 0, '*',
    ],
    // prettier-ignore
    last: [
      301, 301, 1, 149.85, 10, 62.83185308, 58.52584, 7738.832, 7739.053, 132.2293, 41.05578,
      0.3104892, 41.05695, 9269.48, 90.39198, 0.3205708, 1.524079e-2, -16.75166, 2.81972, 89.5667,
      2.480915e-5, null, null, 90.392, 0, 1.686078e-4, 5.492809, 0, 0, 1.292148e-4, 9.771707e-7,
      1.292111e-4, 4.573828e-4, 0, '*',
    ],
  },
];
