// Issue 28: a fresh install ships a starter mapping library — labld's own tensile-test mapping
// and template (lib/catalogue/starter/) — so the seed's example.csv is converted on day one,
// offline: the mapping names its template by the template resource's catalogue URL, read from
// the catalogue's store. Here the guarded fetch can reach nothing: no private address is
// allowed, and no connection to the internet can be made within its 1 ms connect limit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Parser, type Quad } from 'n3';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { ensureMappingLibrary } from '../../lib/catalogue/mapping-library.ts';
import {
  STARTER_DATASET,
  ensureStarterLibrary,
  repointStarterMapping,
  starterWanted,
} from '../../lib/catalogue/starter-library.ts';
import { startLabld } from '../support/labld.ts';
import { seedFixture } from '../support/shared.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from './actions/support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const LINK = 'http://purl.obolibrary.org/obo/RO_0010002';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const OFFLINE = { LABLD_FETCH_ALLOW: '', LABLD_FETCH_CONNECT_TIMEOUT_MS: '1' };
const saved = Object.fromEntries(Object.keys(OFFLINE).map((k) => [k, process.env[k]]));

before(() => Object.assign(process.env, OFFLINE));
after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function call(base: string, who: Person | undefined, action: string, body: Dict): Promise<Dict> {
  const headers: Record<string, string> = who ? { authorization: who.token } : {};
  const answer = await api(base, action, { body, headers });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

/** The steps of a resource once convert (or a failure) ended its chain. */
async function settled(base: string, who: Person, resourceId: string): Promise<Dict[]> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = await call(base, who, 'labld_status_show', { resource_id: resourceId });
    const steps = (status.resources as Dict[]).find((r) => r.resource_id === resourceId)?.steps as
      Dict[] | undefined;
    const resting = steps?.every((s) => ['done', 'failed', 'needs-mapping'].includes(s.state as string));
    const ended = steps?.some((s) => s.state !== 'done' || s.step === 'convert');
    if (steps && resting && ended) return steps;
    if (Date.now() > deadline) throw new Error(`the chain did not come to rest: ${JSON.stringify(steps)}`);
    await sleep(300);
  }
}

/** The names of the datasets of the group `mappings`, as anyone sees them. */
async function library(base: string): Promise<string[]> {
  const found = await call(base, undefined, 'package_search', { fq: 'groups:mappings', rows: 100 });
  return (found.results as Dict[]).map((d) => d.name as string);
}

/** A user uploads the seed example.csv into a new dataset `tensile`; its chain's steps once at rest. */
async function convertSeed(labld: {
  url: string;
  dataDir: string;
}): Promise<{ alice: Person; steps: Dict[] }> {
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const alice = await person(store, 'alice');
  await store.close();
  await call(labld.url, alice, 'package_create', { name: 'tensile' });
  const form = new FormData();
  form.set('package_id', 'tensile');
  form.set('upload', new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]), 'example.csv');
  const uploaded = await api(labld.url, 'resource_create', { form, headers: { authorization: alice.token } });
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body.error));
  return { alice, steps: await settled(labld.url, alice, (uploaded.body.result as Dict).id as string) };
}

describe('the starter mapping library', () => {
  it('converts the seed example.csv on a fresh install with no network: the starter mapping is selected and its template read locally', async () => {
    const labld = await startLabld({ starterMappings: true });
    try {
      assert.deepEqual(await library(labld.url), [STARTER_DATASET]);
      const starter = await call(labld.url, undefined, 'package_show', { id: STARTER_DATASET });
      assert.equal(starter.private, false);
      const files = Object.fromEntries((starter.resources as Dict[]).map((r) => [r.name, r.url as string]));
      assert.deepEqual(Object.keys(files).sort(), ['tensile-test-map.yaml', 'tensile-test-template.ttl']);
      // The mapping names the template by the template resource's own download URL.
      const mapping = await (await fetch(files['tensile-test-map.yaml']!)).text();
      assert.ok(mapping.includes(`template: ${files['tensile-test-template.ttl']}/`), mapping.slice(0, 800));

      // The library's page lists it.
      const page = await (await fetch(`${labld.url}/group/mappings`)).text();
      assert.match(page, /tensile-test-map\.yaml/);

      const { alice, steps } = await convertSeed(labld);
      const select = steps.find((s) => s.step === 'select-mapping');
      assert.equal(select?.state, 'done', JSON.stringify(steps));
      assert.match(
        JSON.stringify(select),
        /mapping \\"tensile-test-map\.yaml\\" selected \(19 rules applicable, 0 skipped\)/,
      );
      const convert = steps.find((s) => s.step === 'convert');
      assert.equal(convert?.state, 'done', JSON.stringify(steps));

      const resources = (await call(labld.url, alice, 'package_show', { id: 'tensile' })).resources as Dict[];
      const joined = resources.find((r) => r.name === 'example-joined.ttl');
      assert.ok(joined, JSON.stringify(resources.map((r) => r.name)));
      const answer = await fetch(joined.url as string, { headers: { authorization: alice.token } });
      const quads = new Parser({ baseIRI: joined.url as string }).parse(await answer.text());
      const labelOf = (iri: string) =>
        quads.find((q) => q.subject.value === iri && q.predicate.value === LABEL)?.object.value;
      const links = quads.filter((q: Quad) => q.predicate.value === LINK);
      // What the descriptor names (the CSV's rows and columns) → the template individual's label.
      const linked = (entity: string) =>
        links.filter((q) => q.subject.value.endsWith(`/${entity}`)).map((q) => labelOf(q.object.value));
      assert.deepEqual(linked('AktuelleProbe0'), ['specimen']);
      assert.deepEqual(linked('ProbenbreiteB03'), ['specimen width']);
      assert.deepEqual(linked('ProbendickeA04'), ['specimen thickness']);
      assert.deepEqual(linked('Messlaenge2'), ['gauge length']);
      assert.deepEqual(linked('Datum15'), ['test date']);
      assert.deepEqual(linked('table-1-Standardkraft'), ['force']);
      assert.deepEqual(linked('table-1-Standardweg'), ['extension']);
      assert.deepEqual(linked('table-1-Dehnung'), ['strain']);
      assert.deepEqual(linked('table-1-Pruefzeit'), ['test time']);
      assert.equal(links.length, 19);
      // The template's own statements came along: the test has its specimen.
      const hasSpecimen = quads.filter((q) => /[#/]hasSpecimen$/.test(q.predicate.value));
      assert.equal(hasSpecimen.length, 1);
      assert.equal(labelOf(hasSpecimen[0]!.subject.value), 'tensile test');
      assert.equal(labelOf(hasSpecimen[0]!.object.value), 'specimen');
    } finally {
      await labld.stop();
    }
  });

  it('is made once: a restart does not make it again (nor once deleted), and two makers racing make one', async () => {
    const first = await startLabld({ starterMappings: true });
    const again = await startLabld({ starterMappings: true, again: await first.halt() });
    assert.deepEqual(await library(again.url), [STARTER_DATASET]);
    const shown = await call(again.url, undefined, 'package_show', { id: STARTER_DATASET });
    assert.equal((shown.resources as Dict[]).length, 2);
    // Someone deletes it: it stays deleted.
    const halted = await again.halt();
    const deleting = await openCatalogueStore({ dataDir: halted.dataDir });
    await deleting.deleteDataset(STARTER_DATASET);
    await deleting.close();
    const third = await startLabld({ starterMappings: true, again: halted });
    try {
      assert.deepEqual(await library(third.url), []);
    } finally {
      await third.stop();
    }
    const dataDir = tempDir('labld-starter-');
    const store = await openCatalogueStore({ dataDir });
    try {
      await ensureMappingLibrary(store, 'lib');
      const make = () =>
        ensureStarterLibrary(store, blobStoreIn(dataDir), { siteUrl: 'http://localhost:1', group: 'lib' });
      assert.deepEqual((await Promise.all([make(), make()])).sort(), ['made', 'there']);
      assert.equal((await store.listDatasets()).filter((d) => d.name === STARTER_DATASET).length, 1);
      assert.equal((await store.listResources(STARTER_DATASET)).length, 2);
      // At another site URL it is re-pointed; once someone edited it, it is theirs.
      const blobs = blobStoreIn(dataDir);
      const mappingText = async () => {
        const found = (await store.listResources(STARTER_DATASET)).find(
          (r) => r.name === 'tensile-test-map.yaml',
        )!;
        return { id: found.id, text: readFileSync(blobs.path(found.blob_key!), 'utf8') };
      };
      assert.equal(await repointStarterMapping(store, blobs, 'http://localhost:1'), false);
      assert.equal(await repointStarterMapping(store, blobs, 'https://lab.example'), true);
      assert.match(
        (await mappingText()).text,
        /^ {2}template: https:\/\/lab\.example\/dataset\/[^ ]+\/download\/tensile-test-template\.ttl\/$/m,
      );
      const edited = await mappingText();
      const key = await blobs.putBytes(`${edited.text}# mine now\n`);
      await store.updateResource(edited.id, { blob_key: key, hash: key });
      assert.equal(await repointStarterMapping(store, blobs, 'https://elsewhere.example'), false);
      assert.match((await mappingText()).text, /# mine now/);
    } finally {
      await store.close();
      await removeTempDir(dataDir);
    }
  });

  it('started again at another URL, the starter mapping names its template there, and still converts offline', async () => {
    const configured = process.env['BASE_URL'];
    delete process.env['BASE_URL']; // the site's URL is the port's, which changes
    try {
      const first = await startLabld({ starterMappings: true });
      const firstUrl = first.url;
      const halted = await first.halt();
      const moved = await startLabld({ starterMappings: true, again: { ...halted, port: 0 } });
      try {
        assert.notEqual(moved.url, firstUrl);
        const shown = await call(moved.url, undefined, 'package_show', { id: STARTER_DATASET });
        const files = Object.fromEntries((shown.resources as Dict[]).map((r) => [r.name, r.url as string]));
        const port = (url: string) => new URL(url).port;
        assert.equal(port(files['tensile-test-template.ttl']!), port(moved.url));
        const mapping = await (await fetch(files['tensile-test-map.yaml']!)).text();
        assert.ok(
          mapping.includes(`template: ${files['tensile-test-template.ttl']}/`),
          mapping.slice(0, 800),
        );
        const { steps } = await convertSeed(moved);
        assert.equal(steps.find((s) => s.step === 'convert')?.state, 'done', JSON.stringify(steps));
      } finally {
        await moved.stop();
      }
    } finally {
      if (configured !== undefined) process.env['BASE_URL'] = configured;
    }
  });

  it('switched off, the library starts empty', async () => {
    const labld = await startLabld({ starterMappings: false });
    try {
      const group = await call(labld.url, undefined, 'group_show', { id: 'mappings' });
      assert.equal(group.package_count, 0);
      assert.deepEqual(await library(labld.url), []);
    } finally {
      await labld.stop();
    }
  });

  it('takes its switch from LABLD_STARTER_MAPPINGS, on by default, and refuses another value', () => {
    assert.equal(starterWanted({}), true);
    assert.equal(starterWanted({ LABLD_STARTER_MAPPINGS: 'false' }), false);
    assert.equal(starterWanted({ LABLD_STARTER_MAPPINGS: 'TRUE' }), true);
    assert.throws(() => starterWanted({ LABLD_STARTER_MAPPINGS: 'no' }), /LABLD_STARTER_MAPPINGS/);
  });
});
