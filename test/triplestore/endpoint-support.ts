// Shared by the endpoint's tests on a whole labld: upload a Turtle resource, press the load
// button (triplestore_load) and wait for the endpoint resource, send a query or an update.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setting } from '../../lib/process/config.ts';
import { datasetDir, readManifest } from '../../lib/triplestore/embedded/disk.ts';
import { openTripleStore, tripleStoreConfigFromEnv } from '../../lib/triplestore/open.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { startLabld, type Running } from '../support/labld.ts';

export const SAMPLE_TTL = `@prefix ex: <http://example.org/> .
ex:m1 ex:force 1.5 ; ex:unit "kN" .
ex:m2 ex:force 2.5 ; ex:unit "kN" .
`;

export const endpoint = (url: string, dataset: string) => `${url}/dataset/${dataset}/triplestore/sparql`;

export async function uploadTurtle(
  url: string,
  who: Person,
  dataset: string,
  file: string,
  text: string,
): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.set('package_id', dataset);
  form.set('upload', new Blob([text], { type: 'text/turtle' }), file);
  const answer = await api(url, 'resource_create', { form, headers: { authorization: who.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.result as { id: string; url: string };
}

/** A public dataset `open` and a private one `closed` of `owner`, each with SAMPLE_TTL loaded; their graphs. */
export async function openAndClosed(url: string, owner: Person): Promise<{ open: string; closed: string }> {
  const graphs = { open: '', closed: '' };
  for (const name of ['open', 'closed'] as const) {
    const made = await api(url, 'package_create', {
      body: { name, private: name === 'closed' },
      headers: { authorization: owner.token },
    });
    assert.equal(made.status, 200);
    graphs[name] = (await uploadTurtle(url, owner, name, 'forces-joined.ttl', SAMPLE_TTL)).url;
    await loadAndWait(url, owner, name);
  }
  return graphs;
}

/**
 * Presses the load button and waits until its load has run (its run is over, the endpoint
 * resource newer than before); `params`: more of triplestore_load's (`rows`).
 */
export async function loadAndWait(
  url: string,
  who: Person,
  dataset: string,
  timeoutMs = 15_000,
  params: Record<string, unknown> = {},
): Promise<{ url: string; package_id: string; last_modified: string }> {
  const endpointOf = async () => {
    const shown = await api(url, 'package_show', {
      query: { id: dataset },
      headers: { authorization: who.token },
    });
    return (
      shown.body.result.resources as {
        name: string;
        url: string;
        package_id: string;
        last_modified: string;
      }[]
    ).find((r) => r.name === 'SPARQL');
  };
  const before = (await endpointOf())?.last_modified;
  const pressed = await api(url, 'triplestore_load', {
    body: { ...params, id: dataset },
    headers: { authorization: who.token },
  });
  assert.equal(pressed.status, 200, JSON.stringify(pressed.body));
  const run = pressed.body.result.run as string;
  // This press's run, not just any load: a sync started earlier may still be finishing.
  const finished = async () => {
    const status = await api(url, 'labld_status_show', {
      query: { id: dataset },
      headers: { authorization: who.token },
    });
    const load = status.body.result.triplestore as { run: string; state: string } | null;
    return load?.run === run && (load.state === 'done' || load.state === 'failed');
  };
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await endpointOf();
    if (found && found.last_modified !== before && (await finished())) return found;
    if (Date.now() > end) throw new Error(`the load of ${dataset} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface SparqlOptions {
  accept?: string;
  who?: Person;
  method?: 'get' | 'form' | 'sparql-query' | 'form-update' | 'sparql-update';
}

export async function sparql(
  url: string,
  dataset: string,
  text: string,
  options: SparqlOptions = {},
): Promise<{ status: number; type: string; text: string }> {
  const headers: Record<string, string> = {};
  if (options.accept) headers.accept = options.accept;
  if (options.who) headers.authorization = options.who.token;
  const at = endpoint(url, dataset);
  let answer: Response;
  switch (options.method ?? 'get') {
    case 'get':
      answer = await fetch(`${at}?query=${encodeURIComponent(text)}`, { headers });
      break;
    case 'form':
    case 'form-update': {
      const field = options.method === 'form' ? 'query' : 'update';
      answer = await fetch(at, { method: 'POST', headers, body: new URLSearchParams({ [field]: text }) });
      break;
    }
    default:
      headers['content-type'] = `application/${options.method}`;
      answer = await fetch(at, { method: 'POST', headers, body: text });
  }
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', text: await answer.text() };
}

/** The graphs the store holds for a dataset id: from the remote store, or the embedded one's manifest on disk. */
export async function storedGraphs(dataDir: string, datasetId: string): Promise<string[]> {
  if (setting('LABLD_TRIPLESTORE_URL') !== '') {
    const store = await openTripleStore(tripleStoreConfigFromEnv());
    try {
      return await store.graphs(datasetId);
    } finally {
      await store.close();
    }
  }
  // The store's own reader: the manifest may be removed while this reads it.
  return Object.keys(readManifest(datasetDir(join(dataDir, 'triplestore'), datasetId)).graphs);
}

/** A labld with one public dataset `name` of alice's, `text` uploaded to it as `file` and loaded. */
export async function startWithPublicGraph(
  name: string,
  file: string,
  text: string,
  timeoutMs: number,
): Promise<Running & { dataDir: string }> {
  const labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const alice = await person(store, 'alice');
  await store.close();
  const made = await api(labld.url, 'package_create', {
    body: { name, private: false },
    headers: { authorization: alice.token },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  await uploadTurtle(labld.url, alice, name, file, text);
  await loadAndWait(labld.url, alice, name, timeoutMs);
  return labld;
}
