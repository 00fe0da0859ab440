// Load with the rows (issue 28, "the data in the store") on a whole labld: the seed example.csv
// through the chain, then triplestore_load with `rows: true` puts its describe graph
// (`example.ttl`) beside the joined graph, each in its own named graph, so that a SPARQL query
// reaches a measured value; without `rows` it does not. Past LABLD_LOAD_ROWS_MAX_BYTES the
// action and the Load form answer 413 naming the limit and load nothing; deleting the rows
// resource, then the dataset, drops their graphs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api } from '../catalogue/actions/support.ts';
import { sleep } from '../support/wait.ts';
import { seededLabld, type Dict, type SeededLabld } from './chain-support.ts';
import { loadAndWait, sparql, storedGraphs } from './endpoint-support.ts';

const LIMIT = 'LABLD_LOAD_ROWS_MAX_BYTES';
let seeded: SeededLabld;
let datasetId: string;
let rowsResource: Dict;
let joinedResource: Dict;

// Rows of example.csv read from the file with awk (third column, Standardkraft [N]): twelve
// rows have a force above 86.5 N; one above 86.52 N, line 18724
// `382.95	245.122	86.5222	306.402	1030.3` (Prüfzeit 382.95 s, Standardkraft 86.5222 N).
const ABOVE = (newtons: number) => `PREFIX qudt: <http://qudt.org/schema/qudt/>
SELECT ?time ?force WHERE {
  ?row ?forceColumn ?fv . ?fv qudt:value ?force .
  FILTER(STRENDS(STR(?forceColumn), "-Standardkraft") && ?force > ${newtons})
  ?row ?timeColumn ?tv . ?tv qudt:value ?time .
  FILTER(STRENDS(STR(?timeColumn), "-Pruefzeit"))
}`;

/** The rows whose force is above `newtons`, as the dataset's endpoint answers them. */
async function above(newtons: number): Promise<{ time: number; force: number }[]> {
  const answer = await sparql(seeded.labld.url, 'rows', ABOVE(newtons), { who: seeded.admin });
  assert.equal(answer.status, 200, answer.text);
  const bindings = JSON.parse(answer.text).results.bindings as Dict[];
  return bindings.map((b) => ({ time: Number(b.time.value), force: Number(b.force.value) }));
}

const loadState = async () => (await seeded.call('labld_status_show', { id: 'rows' })).triplestore as Dict;

/** Polls the graphs the store holds for the dataset until they are `expected`. */
async function graphsBecome(expected: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const graphs = await storedGraphs(seeded.labld.dataDir, datasetId);
    if (JSON.stringify(graphs.sort()) === JSON.stringify([...expected].sort())) return;
    if (Date.now() > deadline)
      throw new Error(`graphs ${JSON.stringify(graphs)}, not ${JSON.stringify(expected)}`);
    await sleep(200);
  }
}

before(async () => {
  seeded = await seededLabld();
  const csv = await seeded.uploadExample('rows');
  await seeded.converted(csv);
  const dataset = await seeded.call('package_show', { id: 'rows' });
  datasetId = dataset.id;
  const resources = dataset.resources as Dict[];
  rowsResource = resources.find((r) => r.name === 'example.ttl')!;
  joinedResource = resources.find((r) => r.name === 'example-joined.ttl')!;
  assert.ok(rowsResource && joinedResource, resources.map((r) => r.name).join(', '));
});
after(async () => {
  delete process.env[LIMIT];
  await seeded?.stop();
});

test('Load without the rows: the joined graph only, and no measurement is reached', async () => {
  // Not loaded yet: the query page's Load form offers the rows too.
  const query = await fetch(`${seeded.labld.url}/dataset/rows/query`, {
    headers: { authorization: seeded.admin.token },
  });
  assert.match(await query.text(), /<input id="query-load-rows" name="rows" type="checkbox">/);
  await loadAndWait(seeded.labld.url, seeded.admin, 'rows', 120_000);
  assert.equal((await loadState()).state, 'done');
  await graphsBecome([joinedResource.url]);
  assert.deepEqual(await above(86.5), []);
});

test('Load with the rows: the describe graph in a named graph of its own; the query reaches the measurement', async () => {
  await loadAndWait(seeded.labld.url, seeded.admin, 'rows', 120_000, { rows: true });
  const load = await loadState();
  assert.equal(load.state, 'done', JSON.stringify(load));
  assert.match(load.summary.note, /^2 graphs; with the rows of 1 source \([\d,]+ triples\)$/);
  await graphsBecome([joinedResource.url, rowsResource.url]);
  assert.deepEqual(await above(86.52), [{ time: 382.95, force: 86.5222 }]);
  assert.equal((await above(86.5)).length, 12);
  // The page says what was loaded, and offers the choice again, ticked as it was.
  const page = await fetch(`${seeded.labld.url}/dataset/rows`, {
    headers: { authorization: seeded.admin.token },
  });
  const html = await page.text();
  assert.match(html, /loaded<\/span> 2 graphs; with the rows of 1 source/);
  assert.match(html, /<input id="load-rows" name="rows" type="checkbox" checked>/);
});

test('past LABLD_LOAD_ROWS_MAX_BYTES: the action and the Load form answer 413 naming it; nothing is queued', async () => {
  const before = await loadState();
  process.env[LIMIT] = '1mb';
  try {
    const refused = await api(seeded.labld.url, 'triplestore_load', {
      body: { id: 'rows', rows: true },
      headers: { authorization: seeded.admin.token },
    });
    assert.equal(refused.status, 413, JSON.stringify(refused.body));
    const [detail] = refused.body.error.rows as string[];
    assert.match(detail!, /example\.ttl \d+\.\d MB/);
    assert.match(detail!, /more than LABLD_LOAD_ROWS_MAX_BYTES \(1\.0 MB\)/);
    // The Load forms of the dataset page and of the query page, the box ticked.
    for (const path of ['triplestore/load', 'query/load']) {
      const form = await fetch(`${seeded.labld.url}/dataset/rows/${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          authorization: seeded.admin.token,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'rows=on',
      });
      assert.equal(form.status, 413, path);
      assert.match(await form.text(), /LABLD_LOAD_ROWS_MAX_BYTES/);
    }
    assert.deepEqual(await loadState(), before, 'the refusals queued no load');
    // Without the rows the same limit does not apply.
    const joinedOnly = await api(seeded.labld.url, 'triplestore_load', {
      body: { id: 'rows' },
      headers: { authorization: seeded.admin.token },
    });
    assert.equal(joinedOnly.status, 200);
    assert.notEqual(joinedOnly.body.result.run, before?.run);
  } finally {
    delete process.env[LIMIT];
  }
  // That load took the rows out again.
  await graphsBecome([joinedResource.url]);
});

test('deleting the rows resource drops its graph; deleting the dataset drops the rest', async () => {
  await loadAndWait(seeded.labld.url, seeded.admin, 'rows', 120_000, { rows: true });
  await graphsBecome([joinedResource.url, rowsResource.url]);
  await seeded.call('resource_delete', { id: rowsResource.id });
  await graphsBecome([joinedResource.url]);
  await seeded.call('package_delete', { id: 'rows' });
  await graphsBecome([]);
});
