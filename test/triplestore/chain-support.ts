// A whole labld with the seed mapping in the `mappings` group, so that an upload of the seed
// example.csv runs the chain to its joined graph: for the tests of loading (automatic and by
// the button) and of plots, on the API and in the browser.
import assert from 'node:assert/strict';
import { Parser } from 'n3';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startFixtureServer, type FixtureServer } from '../converter/fixture-server.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { readFileSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Dict = Record<string, any>;

export interface SeededLabld {
  labld: Running & { dataDir: string };
  files: FixtureServer;
  admin: Person;
  call(action: string, body: Dict, who?: Person): Promise<Dict>;
  /** Uploads the seed example.csv into a new dataset; its resource id. */
  uploadExample(dataset: string, options?: { private?: boolean }): Promise<string>;
  /** Waits until the source's convert step is done; its steps. */
  converted(resourceId: string): Promise<Dict[]>;
  stop(): Promise<void>;
}

export async function seededLabld(): Promise<SeededLabld> {
  // The seed mapping's template is read from a local stand-in for GitHub.
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  const files = await startFixtureServer();
  const labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const admin = await person(store, 'admin', true);
  await store.close();
  const call = async (action: string, body: Dict, who: Person = admin) => {
    const answer = await api(labld.url, action, { body, headers: { authorization: who.token } });
    assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
    return answer.body.result as Dict;
  };
  const upload = async (dataset: string, bytes: Blob, name: string) => {
    const form = new FormData();
    form.set('package_id', dataset);
    form.set('upload', bytes, name);
    const answer = await api(labld.url, 'resource_create', { form, headers: { authorization: admin.token } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body.error));
    return answer.body.result.id as string;
  };
  // The mapping library's group `mappings` is made at first start.
  await call('package_create', { name: 'mapping-library' });
  await call('member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
  await upload(
    'mapping-library',
    new Blob([files.local(readSeed('rdfconverter/csvw-template-map.yaml'))]),
    'csvw-template-map.yaml',
  );
  return {
    labld,
    files,
    admin,
    call,
    async uploadExample(dataset, options = {}) {
      await call('package_create', { name: dataset, private: options.private === true });
      return upload(dataset, new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]), 'example.csv');
    },
    async converted(resourceId) {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const status = await call('labld_status_show', { resource_id: resourceId });
        const steps = (status.resources as Dict[])[0]?.steps as Dict[] | undefined;
        const failed = steps?.find((s) => s.state === 'failed');
        if (failed) throw new Error(`the chain failed: ${JSON.stringify(failed)}`);
        if (steps?.some((s) => s.step === 'convert' && s.state === 'done')) return steps;
        if (Date.now() > deadline) throw new Error(`convert did not finish: ${JSON.stringify(steps)}`);
        await sleep(100);
      }
    },
    async stop() {
      await labld.stop();
      await files.stop();
    },
  };
}

/** The triples of the dataset's joined graph, counted by n3 from the file (not by the store). */
export async function joinedTriples(seeded: SeededLabld, dataset: string): Promise<number> {
  const resources = (await seeded.call('package_show', { id: dataset })).resources as Dict[];
  const joined = resources.find((r) => String(r.name).endsWith('-joined.ttl'));
  assert.ok(joined, 'the chain made a joined graph');
  const answer = await fetch(`${seeded.labld.url}/dataset/${dataset}/resource/${joined.id}/download`, {
    headers: { authorization: seeded.admin.token },
  });
  assert.equal(answer.status, 200);
  return new Parser({ format: 'Turtle' }).parse(await answer.text()).length;
}

/** COUNT(*) over the dataset's default graph (the union of its graphs), as an anonymous reader asks it. */
export async function countOnEndpoint(url: string, dataset: string, who?: Person): Promise<number> {
  const query = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
  const answer = await fetch(
    `${url}/dataset/${dataset}/triplestore/sparql?query=${encodeURIComponent(query)}`,
    {
      headers: { accept: 'application/sparql-results+json', ...(who ? { authorization: who.token } : {}) },
    },
  );
  assert.equal(answer.status, 200, await answer.clone().text());
  const body = (await answer.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(body.results.bindings[0]?.n.value ?? 0);
}
