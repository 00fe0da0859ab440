// The resolver in front of the guarded fetch (lib/sources.ts): a URL at labld's own base URL is
// never fetched. A catalogue resource's download URL is read from the catalogue's store with the
// caller's rights; a stored file from the blob store; any other address of labld is refused.
// BASE_URL names a host nobody serves and the policy resolves no name, so any fetch would fail.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { ANONYMOUS, credentialFromHeader, credentialHeader } from '../../lib/catalogue/auth/actor.ts';
import { filesForUser, type CatalogueFiles } from '../../lib/catalogue/resource-file.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import { openSource, textLoader } from '../../lib/sources.ts';
import { memoryStores } from '../../lib/shared/memory.ts';
import { rejectsWith, serve, tableResolver, testPolicy } from '../fetch/helpers.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';

const BASE = 'http://labld.lab.test:8080/labld';
const dir = tempDir('labld-catalogue-sources-');
const blobs = new BlobStore(`${dir}/blobs`);
const saved = process.env['BASE_URL'];
/** No name resolves: a request that reached the network would fail with "host not found". */
const policy = testPolicy({ resolve: tableResolver({}) });
let store: CatalogueStore;
let alice: string;
let bob: string;
let datasetId: string;
let resourceId: string;
let linkId: string;

before(async () => {
  process.env['BASE_URL'] = BASE;
  store = await openCatalogueStore({ dataDir: dir });
  alice = (await store.createUser({ name: 'alice', fullname: 'A', email: 'a@lab.test', sysadmin: false })).id;
  bob = (await store.createUser({ name: 'bob', fullname: 'B', email: 'b@lab.test', sysadmin: false })).id;
  const dataset = await store.createDataset({ name: 'library', private: true, creator_user_id: alice });
  datasetId = dataset.id;
  const blob = await blobs.putBytes('@prefix ex: <http://e/> . ex:template a ex:Thing .\n');
  const resource = await store.createResource('library', {
    name: 'template.ttl',
    url: 'template.ttl',
    url_type: 'upload',
    blob_key: blob,
    creator_user_id: alice,
  });
  resourceId = resource.id;
  const link = await store.createResource('library', {
    name: 'elsewhere',
    url: 'http://files.lab.test/template.ttl',
    url_type: 'link',
    creator_user_id: alice,
  });
  linkId = link.id;
});
after(async () => {
  await store.close();
  removeTempDir(dir);
  if (saved === undefined) delete process.env['BASE_URL'];
  else process.env['BASE_URL'] = saved;
});

const downloadUrl = (dataset: string, resource: string, file = '/template.ttl') =>
  `${BASE}/dataset/${dataset}/resource/${resource}/download${file}`;

test('a download URL of the catalogue is read from its store with the caller’s rights, in every form', async () => {
  const catalogue = filesForUser(store, alice);
  for (const url of [
    downloadUrl(datasetId, resourceId),
    downloadUrl('library', resourceId),
    downloadUrl(datasetId, resourceId, ''),
    `${downloadUrl(datasetId, resourceId)}?x=1#y`,
  ]) {
    const source = await openSource(url, { field: 'template_url', blobs, policy, catalogue });
    assert.equal(source.fileName, 'template.ttl', url);
    assert.match(await source.text(), /ex:template a ex:Thing/, url);
  }
});

test('someone the dataset is hidden from gets the download route’s 404, not the file', async () => {
  for (const catalogue of [filesForUser(store, bob), filesForUser(store, null)]) {
    await rejectsWith(
      openSource(downloadUrl(datasetId, resourceId), { field: 'template_url', blobs, policy, catalogue }),
      'not-found',
      `resource not found: ${resourceId}`,
    );
  }
  // A resource named under another dataset than its own is not found either.
  const other = await store.createDataset({ name: 'other', creator_user_id: alice });
  await rejectsWith(
    openSource(downloadUrl(other.id, resourceId), {
      field: 'template_url',
      blobs,
      policy,
      catalogue: filesForUser(store, alice),
    }),
    'not-found',
  );
});

test('every other address of labld is refused without a fetch; so is a resource when no catalogue is given', async () => {
  const catalogue = filesForUser(store, alice);
  for (const url of [
    `${BASE}/metrics`,
    `${BASE}/api/3/action/package_show?id=library`,
    `${BASE}/dataset/library`,
  ]) {
    await rejectsWith(
      openSource(url, { field: 'url', blobs, policy, catalogue }),
      'forbidden',
      "it is labld's own address and names no file of its catalogue",
    );
  }
  await rejectsWith(
    openSource(downloadUrl(datasetId, resourceId), { field: 'url', blobs, policy }),
    'forbidden',
    'is a catalogue resource',
  );
});

test('the same path elsewhere (another origin, or outside the base path) is an ordinary URL for the guarded fetch', async () => {
  const calls: string[] = [];
  const catalogue: CatalogueFiles = async (dataset, resource) => {
    calls.push(`${dataset}/${resource}`);
    throw new Error('not to be asked');
  };
  for (const url of [
    `http://files.lab.test:8080/labld/dataset/${datasetId}/resource/${resourceId}/download`,
    `http://labld.lab.test:8080/dataset/${datasetId}/resource/${resourceId}/download`,
    `https://labld.lab.test:8080/labld/dataset/${datasetId}/resource/${resourceId}/download`,
  ]) {
    await rejectsWith(
      openSource(url, { field: 'url', blobs, policy, catalogue }),
      'unreachable',
      'host not found',
    );
  }
  assert.deepEqual(calls, []);
});

test('a link resource is read where it points, through the guarded fetch', async () => {
  const files = await serve((_req, res) => res.end('@prefix ex: <http://e/> . ex:linked a ex:Thing .\n'));
  try {
    const resolve = tableResolver({ 'files.lab.test': ['127.0.0.1'] });
    await store.updateResource(linkId, { url: `http://files.lab.test:${files.port}/template.ttl` });
    const catalogue = filesForUser(store, alice);
    const allowed = testPolicy({ allow: 'files.lab.test', resolve });
    const source = await openSource(downloadUrl(datasetId, linkId, ''), {
      field: 'url',
      blobs,
      policy: allowed,
      catalogue,
    });
    assert.match(await source.text(), /ex:linked/);
  } finally {
    await files.close();
  }
});

test('the text loader reads catalogue URLs fresh, never from the fetch cache', async () => {
  const cache = memoryStores({ maxEntries: 10, maxBytes: 1 << 20 });
  try {
    const load = textLoader({ blobs, policy, cache: cache.documents, catalogue: filesForUser(store, alice) });
    const loaded = await load(downloadUrl(datasetId, resourceId), 'template_url');
    assert.match(loaded.text, /ex:template/);
    assert.equal(loaded.fileName, 'template.ttl');
  } finally {
    await cache.close();
  }
});

test('the caller’s credential travels to the operation as hashes in one header; anything malformed is anonymous', () => {
  const token = { kind: 'token', hash: 'ab'.repeat(32) } as const;
  assert.deepEqual(credentialFromHeader(credentialHeader(token)), token);
  assert.equal(credentialHeader(ANONYMOUS), undefined);
  for (const bad of [
    undefined,
    '',
    'token',
    'token xyz',
    `admin ${'ab'.repeat(32)}`,
    `token ${'ab'.repeat(32)} x`,
  ]) {
    assert.deepEqual(credentialFromHeader(bad), ANONYMOUS, String(bad));
  }
});
