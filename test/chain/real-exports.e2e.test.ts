// Real machine exports through HTTP end to end (issue 28, "Real files import"): each file is
// uploaded through the Action API and goes annotate → import → describe; its table (column
// names, units, numeric columns, row count, first and last values) is checked against what the
// file holds. Every expectation below was written by hand from reading the file (its header,
// unit row, first and last data lines, `wc -l` less the lines above the table), never from
// labld's output. A file whose import fails shows the failure in words on its own page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedDir } from '../support/shared.ts';
import { useChainE2e, type Dict } from './e2e.ts';

const e = useChainE2e();
const { call, upload, settled } = e;

const REAL = `${sharedDir}fixtures/real-exports/`;
const QUDT = 'http://qudt.org/vocab/unit/';

interface Expected {
  file: string;
  rows: number;
  /** Per column: the datastore field, its unit (QUDT name, or none), and whether it is numeric. */
  columns: [field: string, unit: string | undefined][];
  first: number[];
  last: number[];
  /** A last field that every line leaves empty (a trailing separator), as pandas names it. */
  empty?: string;
}

const CASES: Expected[] = [
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
];

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const states = (steps: Dict[]) => steps.slice(0, 3).map((s) => [s.step, s.state]);

async function page(path: string): Promise<string> {
  const answer = await fetch(`${e.labld.url}${path}`);
  assert.equal(answer.status, 200, path);
  return answer.text();
}

test('real exports: annotate → import → describe, tables as the files hold them', async () => {
  await e.ready;
  await call('package_create', { name: 'real-exports' });
  for (const expected of CASES) {
    const name = baseName(expected.file);
    const id = (await upload('resource_create', { package_id: 'real-exports' }, expected.file, name))
      .id as string;
    const steps = await settled(id, 180_000);
    assert.deepEqual(
      states(steps),
      [
        ['annotate', 'done'],
        ['import', 'done'],
        ['describe', 'done'],
      ],
      `${name}: ${JSON.stringify(steps.find((s) => s.state === 'failed')?.failure)}`,
    );
    // describe wrote a csvw:Row per data row, as import stored them.
    assert.equal(steps[2]!.summary.rows, expected.rows, name);
    const search = (params: Dict) => call('datastore_search', { resource_id: id, sort: '_id', ...params });
    const head = await search({ limit: 1 });
    assert.equal(head.total, expected.rows, name);
    const fields = (head.fields as Dict[]).filter((f) => f.id !== '_id');
    const empty = expected.empty === undefined ? [] : [[expected.empty, 'text']];
    assert.deepEqual(
      fields.map((f) => [f.id, f.type]),
      [...expected.columns.map(([field]) => [field, 'numeric']), ...empty],
      name,
    );

    // The empty last field is null in every row shown (first and last).
    const values = (record: Dict) => [
      ...expected.columns.map(([field]) => record[field]),
      ...(expected.empty === undefined ? [] : [record[expected.empty]]),
    ];
    const expect = (row: number[]) => (expected.empty === undefined ? row : [...row, null]);
    assert.deepEqual(values((head.records as Dict[])[0]!), expect(expected.first), name);
    const tail = await search({ limit: 1, offset: expected.rows - 1 });
    assert.deepEqual(values((tail.records as Dict[])[0]!), expect(expected.last), name);
    // The units, from the descriptor annotate made (what describe and the mapper read).
    const resources = (await call('package_show', { id: 'real-exports' })).resources as Dict[];
    const descriptorId = resources.find(
      (r) => r.labld_derivation?.source_resource_id === id && r.labld_derivation?.step === 'annotate',
    )!.id as string;
    const descriptor = JSON.parse(
      await (
        await fetch(`${e.labld.url}/dataset/real-exports/resource/${descriptorId}/download`, {
          headers: e.auth(),
        })
      ).text(),
    ) as { tables: { tableSchema: { columns: Dict[] } }[] };
    assert.equal(descriptor.tables.length, 1, name);
    const columns = descriptor.tables[0]!.tableSchema.columns.filter((c) => !c.suppressOutput);
    assert.deepEqual(
      columns
        .slice(0, expected.columns.length)
        .map((c) => (c['qudt:unit']?.['@id'] as string | undefined)?.replace(QUDT, '')),
      expected.columns.map(([, unit]) => unit),
      name,
    );
  }
  // The Polish file's own page previews its numbers.
  const resources = (await call('package_show', { id: 'real-exports' })).resources as Dict[];
  const polish = resources.find((r) => r.name === 'bluehill-pl.csv')!;
  const html = await page(`/dataset/real-exports/resource/${polish.id as string}`);
  assert.match(html, /<td class="num">0\.27211<\/td>/);
  assert.doesNotMatch(html, /role="alert"/);
});

test("a failed import is shown on the resource's own page, in words, with what to do", async () => {
  await e.ready;
  await call('package_create', { name: 'late-point' });
  // Decimal commas in the 20 rows annotate samples, then `"22.5"`: the descriptor says ",".
  const lines = ['Czas;Siła', '(s);(N)'];
  for (let i = 0; i < 25; i++) lines.push(i === 22 ? '"22.5";"22,25"' : `"${i},5";"${i},25"`);
  const file = new Blob([`${lines.join('\r\n')}\r\n`]);
  const id = (await upload('resource_create', { package_id: 'late-point' }, file, 'late-point.csv'))
    .id as string;
  const steps = await settled(id);
  assert.deepEqual(states(steps).slice(0, 2), [
    ['annotate', 'done'],
    ['import', 'failed'],
  ]);
  const html = await page(`/dataset/late-point/resource/${id}`);
  const alert = /<p class="error" role="alert">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
  assert.match(alert, /<strong>import failed<\/strong>/);
  // The line and the column, the format the descriptor gave, and what to do.
  assert.match(
    alert,
    /line 25 of .*late-point\.csv: &quot;22\.5&quot; in column &quot;Czas&quot; is not numeric/,
  );
  assert.match(alert, /the descriptor(&#39;|&#x27;|')s format: decimal &quot;,&quot;/);
  assert.match(alert, /<br>What to do: a cell does not fit its column as the descriptor describes it/);
  assert.match(alert, /check that column(&#39;|&#x27;|')s format in the descriptor/);
  assert.match(html, /No table preview: the import failed/);
  // The steps are listed below, the failed one with its state.
  assert.match(
    html,
    /<code>late-point\.csv: import<\/code> <span class="status status-failed">failed<\/span>/,
  );
  // The descriptor annotate made shows its source's failure too.
  const resources = (await call('package_show', { id: 'late-point' })).resources as Dict[];
  const descriptor = resources.find((r) => r.labld_derivation?.step === 'annotate')!;
  assert.match(await page(`/dataset/late-point/resource/${descriptor.id as string}`), /import failed/);
});
