// Real machine exports through HTTP end to end (issue 28, "Real files import"): each file is
// uploaded through the Action API and goes annotate → import → describe; its table (column
// names, units, numeric columns, row count, first and last values) is checked against what the
// file holds. Every expectation (real-exports-cases.ts) was written by hand from reading the
// file (its header, unit row, first and last data lines, `wc -l` less the lines above the
// table), never from labld's output. A multi-block file's import keeps its measurements; describe
// writes the rows of every block. A file whose import fails shows the failure on its own page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useChainE2e, type Dict } from './e2e.ts';
import { CASES, type Cell } from './real-exports-cases.ts';

const e = useChainE2e();
const { call, upload, settled } = e;

const QUDT = 'http://qudt.org/vocab/unit/';

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
    const fields = { package_id: 'real-exports', ...(expected.format ? { format: expected.format } : {}) };
    const id = (await upload('resource_create', fields, expected.file, name)).id as string;
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
    // describe wrote a csvw:Row per data row, as import stored them (of every table).
    assert.equal(steps[2]!.summary.rows, expected.described ?? expected.rows, name);
    const search = (params: Dict) => call('datastore_search', { resource_id: id, sort: '_id', ...params });
    const head = await search({ limit: 1 });
    assert.equal(head.total, expected.rows, name);
    const stored = (head.fields as Dict[]).filter((f) => f.id !== '_id');
    const empty = expected.empty === undefined ? [] : [[expected.empty, 'text']];
    assert.deepEqual(
      stored.map((f) => [f.id, f.type]),
      [...expected.columns.map(([field, , type]) => [field, type ?? 'numeric']), ...empty],
      name,
    );

    // The empty last field is null in every row shown (first and last).
    const values = (record: Dict) => [
      ...expected.columns.map(([field]) => record[field]),
      ...(expected.empty === undefined ? [] : [record[expected.empty]]),
    ];
    const expect = (row: Cell[]) => (expected.empty === undefined ? row : [...row, null]);
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
    assert.equal(descriptor.tables.length, expected.tables ?? 1, name);
    const table = descriptor.tables[expected.table ?? 0]!;
    const columns = table.tableSchema.columns.filter((c) => !c.suppressOutput);
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
