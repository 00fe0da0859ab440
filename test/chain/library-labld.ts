// A whole labld for the chain's UI tests: the group `mappings` holding the seed mapping, whose
// template is served by a host the test takes down (`template.up = false`: 404 for everything)
// and brings back, so that convert fails and can then pass — a failure with a fixable cause.
import assert from 'node:assert/strict';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { startFileServer } from '../support/file-server.ts';
import { readSeed } from '../support/shared.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { startFixtureServer } from '../converter/fixture-server.ts';

export interface LibraryLabld {
  labld: Running & { dataDir: string };
  /** A sysadmin, with an API token. */
  root: Person;
  template: { up: boolean };
  /** An action as root; its result. */
  call(action: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startLibraryLabld(): Promise<LibraryLabld> {
  const files = await startFixtureServer();
  const template = { up: true };
  const host = await startFileServer({ fallback: (path) => (template.up ? files.get(path) : undefined) });
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  // The template is asked for at every conversion (as from a host that answers `no-cache`), so
  // that taking its host down is seen at once rather than after the fetch cache's freshness.
  process.env['LABLD_FETCH_CACHE_FRESH_S'] = '0';
  const labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const root = await person(store, 'root', true);
  await store.close();
  const call = async (action: string, body: Record<string, unknown>) => {
    const answer = await api(labld.url, action, { body, headers: { authorization: root.token } });
    assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
    return answer.body.result as Record<string, unknown>;
  };
  // The mapping library's group `mappings` is made at first start.
  await call('package_create', { name: 'library', title: 'Mapping library' });
  await call('member_create', { id: 'mappings', object: 'library', object_type: 'package' });
  const mapping = files
    .local(readSeed('rdfconverter/csvw-template-map.yaml'))
    .replaceAll(files.origin, host.origin);
  const form = new FormData();
  form.set('package_id', 'library');
  form.set('upload', new Blob([mapping]), 'csvw-template-map.yaml');
  const made = await api(labld.url, 'resource_create', { form, headers: { authorization: root.token } });
  assert.equal(made.status, 200, JSON.stringify(made.body.error));
  return {
    labld,
    root,
    template,
    call,
    async stop() {
      await labld.stop();
      await host.stop();
      await files.stop();
    },
  };
}
