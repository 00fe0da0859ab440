// The chain's end-to-end tests' labld (test/chain/*.e2e.test.ts): a whole labld on the transport
// LABLD_TEST_TRANSPORT names, a local stand-in for the web (the seed mapping's template), an
// admin, the mapping library (a decoy, then the seed mapping), and the Action API calls the
// tests make, waiting for a chain by polling labld_status_show as a client would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld } from '../support/labld.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { startFixtureServer, type FixtureServer } from '../converter/fixture-server.ts';
import { HARDNESS_MAPPING_TEXT } from './support.ts';

/** The source and the three resources the chain derives from it, in that order. */
export const FOUR = ['example.csv', 'example-metadata.jsonld', 'example.ttl', 'example-joined.ttl'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Dict = Record<string, any>;

export interface ChainE2e {
  /** Replaced by a test that stops it (`halt`) and starts it again. */
  labld: Awaited<ReturnType<typeof startLabld>>;
  files: FixtureServer;
  alice: Person;
  /**
   * Settles when labld and the library are up: a file's own top-level `before` may start
   * before this one has finished (node:test starts root hooks as they are declared).
   */
  ready: Promise<void>;
  /** The seed mapping's resource in the library. */
  seedMappingId: string;
  auth(): Record<string, string>;
  /** An action that must succeed; its result. */
  call(action: string, body: Dict): Promise<Dict>;
  /** A multipart action with the file as `upload`; its result. */
  upload(action: string, fields: Dict, file: string | Blob, name: string): Promise<Dict>;
  /** The steps of a resource once `done` holds for them (polled). */
  stepsWhen(resourceId: string, done: (steps: Dict[]) => boolean, timeoutMs?: number): Promise<Dict[]>;
  /** The steps of a resource once its chain has come to rest (every step done, failed or waiting for a mapping). */
  settled(resourceId: string, timeoutMs?: number): Promise<Dict[]>;
  /** The seed example.csv uploaded to `dataset` (created first unless `existing`); its id. */
  uploadSeed(dataset: string, existing?: boolean): Promise<string>;
  /** The names of a dataset's resources, in order. */
  names(dataset: string): Promise<string[]>;
}

/** Starts labld and the library before the file's tests, stops them after. */
export function useChainE2e(): ChainE2e {
  const e = {} as ChainE2e;
  let started!: () => void;
  e.ready = new Promise((resolve) => (started = resolve));
  e.auth = () => ({ authorization: e.alice.token });
  e.call = async (action, body) => {
    const answer = await api(e.labld.url, action, { body, headers: e.auth() });
    assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
    return answer.body.result as Dict;
  };
  e.upload = async (action, fields, file, name) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
    form.set('upload', typeof file === 'string' ? new Blob([readFileSync(file)]) : file, name);
    const answer = await api(e.labld.url, action, { form, headers: e.auth() });
    assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
    return answer.body.result as Dict;
  };
  e.stepsWhen = async (resourceId, done, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await e.call('labld_status_show', { resource_id: resourceId });
      const steps = (status.resources as Dict[]).find((r) => r.resource_id === resourceId)?.steps as
        Dict[] | undefined;
      if (steps && done(steps)) return steps;
      if (Date.now() > deadline) throw new Error(`the chain did not come as far: ${JSON.stringify(steps)}`);
      await sleep(100);
    }
  };
  e.settled = (resourceId, timeoutMs) =>
    e.stepsWhen(
      resourceId,
      (steps) => {
        const resting = steps.every((s) => ['done', 'failed', 'needs-mapping'].includes(s.state));
        const ended = steps.some((s) => s.state === 'failed') || steps.some((s) => s.step === 'convert');
        const noMapping = steps.some((s) => s.step === 'select-mapping' && s.state === 'needs-mapping');
        return resting && (ended || noMapping);
      },
      timeoutMs,
    );
  e.uploadSeed = async (dataset, existing = false) => {
    if (!existing) await e.call('package_create', { name: dataset });
    const csv = seedFixture('csvtocsvw/example.csv');
    return (await e.upload('resource_create', { package_id: dataset }, csv, 'example.csv')).id as string;
  };
  e.names = async (dataset) =>
    ((await e.call('package_show', { id: dataset })).resources as Dict[]).map((r) => r.name as string);

  before(async () => {
    // The seed mapping's template is read from a local stand-in for GitHub, and the converter's
    // createrdf reads the catalogue's own downloads (BASE_URL names localhost).
    process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1,localhost';
    e.files = await startFixtureServer();
    e.labld = await startLabld();
    const store = await openCatalogueStore({ dataDir: e.labld.dataDir });
    e.alice = await person(store, 'alice', true);
    await store.close();
    // The mapping library's group `mappings` is made at first start.
    await e.call('package_create', { name: 'mapping-library' });
    await e.call('member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
    // A decoy first in library order: a mapping for another kind of data.
    await e.upload(
      'resource_create',
      { package_id: 'mapping-library' },
      new Blob([HARDNESS_MAPPING_TEXT]),
      'hardness-map.yaml',
    );
    const seed = await e.upload(
      'resource_create',
      { package_id: 'mapping-library' },
      new Blob([e.files.local(readSeed('rdfconverter/csvw-template-map.yaml'))]),
      'csvw-template-map.yaml',
    );
    e.seedMappingId = seed.id as string;
    started();
  });
  after(async () => {
    await e.labld?.stop();
    await e.files?.stop();
  });
  return e;
}
