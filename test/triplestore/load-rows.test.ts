// loadDataset with the rows (lib/chain/load.ts) on a real catalogue store and the embedded
// triple store: a source's describe graph (`<base>.ttl`, known by its derivation) is loaded only
// when asked for, into a named graph of its own; a sync or an autoload keeps it as it is; a
// plain Load takes it out again; without a joined graph a plain Load still takes no rows; past
// LABLD_LOAD_ROWS_MAX_BYTES the load changes nothing and its status says why.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Dataset, Resource } from '../../lib/catalogue/model.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { loadDataset } from '../../lib/chain/load.ts';
import { loadStatus, queueLoad, withLoadStatus } from '../../lib/chain/load-status.ts';
import type { TripleStore } from '../../lib/triplestore/contract.ts';
import { SITE } from '../catalogue/actions/support.ts';
import { SAMPLE_TTL } from './endpoint-support.ts';
import { loadFixture, type LoadFixture, type StoreLoadDeps } from './load-support.ts';

const LIMIT = 'LABLD_LOAD_ROWS_MAX_BYTES';
/** Two rows of a table as describe writes them: each cell a quantity value (5 triples). */
const ROWS_TTL = `@prefix qudt: <http://qudt.org/schema/qudt/> .
<http://ex.org/t/gid-1> <http://ex.org/t/Force> [ qudt:value 12.5 ; qudt:unit <http://qudt.org/vocab/unit/N> ] .
<http://ex.org/t/gid-2> <http://ex.org/t/Force> [ qudt:value 14.25 ] .
`;

let fixture: LoadFixture;
let tripleStore: TripleStore;
let deps: StoreLoadDeps;

before(async () => {
  fixture = await loadFixture();
  ({ tripleStore, deps } = fixture);
});
after(async () => {
  delete process.env[LIMIT];
  await fixture?.dispose();
});

const graphOf = (r: Resource) => `${SITE}/dataset/${r.package_id}/resource/${r.id}/download/${r.url}`;

/** An uploaded CSV and what the chain derived from it: its rows (describe) and, if `joined`, its joined graph. */
async function source(dataset: Dataset, base: string, joined = true) {
  const put = (text: string) => deps.blobs.putBytes(text);
  const csv = await deps.store.createResource(dataset.id, {
    name: `${base}.csv`,
    url: `${base}.csv`,
    url_type: 'upload',
    format: 'CSV',
    blob_key: await put('force\n12.5\n14.25\n'),
  });
  const derived = async (step: string, name: string, text: string) =>
    deps.store.upsertDerived(
      { package_id: dataset.id, source_resource_id: csv.id, step },
      {
        name,
        url: name,
        url_type: 'upload',
        format: 'text/turtle; charset=utf-8',
        blob_key: await put(text),
      },
    );
  const rows = await derived('describe', `${base}.ttl`, ROWS_TTL);
  return {
    csv,
    rows,
    joined: joined ? await derived('convert', `${base}-joined.ttl`, SAMPLE_TTL) : undefined,
  };
}

test('the rows only when asked, in a graph of their own; a sync keeps them, a plain Load takes them out', async () => {
  const dataset = await deps.store.createDataset({ name: 'with-rows' });
  const { rows, joined } = await source(dataset, 'tensile');
  const plain = await loadDataset(deps, dataset.id, 'load', false);
  assert.equal(plain.rows, false);
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(joined!)]);

  const withRows = await loadDataset(deps, dataset.id, 'load', true);
  assert.deepEqual(
    withRows.loaded.map((l) => [l.graph, l.triples, l.rows]),
    [
      [graphOf(joined!), 4, false],
      [graphOf(rows), 5, true],
    ],
  );
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(joined!), graphOf(rows)].sort());
  const value = await tripleStore.query(
    dataset.id,
    'SELECT ?v WHERE { <http://ex.org/t/gid-2> ?p [ <http://qudt.org/schema/qudt/value> ?v ] }',
  );
  assert.ok(value.type === 'select' && value.text.includes('"14.25"'), JSON.stringify(value));

  // A sync (a resource changed) and an autoload say nothing about rows: they stay in.
  const synced = await loadDataset(deps, dataset.id, 'sync');
  assert.equal(synced.rows, true);
  assert.equal((await tripleStore.graphs(dataset.id)).length, 2);
  await loadDataset(deps, dataset.id, 'load');
  assert.equal((await tripleStore.graphs(dataset.id)).length, 2);

  const without = await loadDataset(deps, dataset.id, 'load', false);
  assert.deepEqual(without.dropped, [graphOf(rows)]);
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(joined!)]);
});

test('without a joined graph a plain Load takes the uploaded Turtle but not the rows', async () => {
  const dataset = await deps.store.createDataset({ name: 'no-mapping' });
  const { rows } = await source(dataset, 'unmapped', false);
  const own = await fixture.withTurtle(dataset, 'own.ttl', SAMPLE_TTL);
  await loadDataset(deps, dataset.id, 'load', false);
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(own)]);
  await loadDataset(deps, dataset.id, 'load', true);
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(own), graphOf(rows)].sort());
});

test('past LABLD_LOAD_ROWS_MAX_BYTES the load changes nothing; its status says what was refused and why', async () => {
  const dataset = await deps.store.createDataset({ name: 'too-many-rows' });
  const { joined } = await source(dataset, 'big');
  await loadDataset(deps, dataset.id, 'load', false);
  process.env[LIMIT] = '100';
  try {
    await queueLoad(deps.store, dataset.id);
    await assert.rejects(
      withLoadStatus(deps.store, dataset.id, 'load', () => loadDataset(deps, dataset.id, 'load', true)),
      (error: unknown) => {
        assert.ok(error instanceof DomainError && error.kind === 'too-large', String(error));
        assert.equal(error.field, 'rows');
        assert.match(
          error.message,
          /big\.ttl \d+ bytes\), more than LABLD_LOAD_ROWS_MAX_BYTES \(100 bytes\)/,
        );
        return true;
      },
    );
  } finally {
    delete process.env[LIMIT];
  }
  assert.deepEqual(await tripleStore.graphs(dataset.id), [graphOf(joined!)]);
  const status = await loadStatus(deps.store, dataset.id);
  assert.equal(status?.state, 'failed');
  assert.ok(status.state === 'failed');
  assert.match(status.failure.detail, /LABLD_LOAD_ROWS_MAX_BYTES/);
  assert.match(status.failure.action, /without the rows/);
});
