import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { openSource, publishStoredFile, storedFileUrl } from '../../lib/sources.ts';
import { makePolicy } from '../../lib/fetch/guarded-fetch.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { tempDir } from '../support/temp.ts';

const blobs = new BlobStore(tempDir('labld-sources-'));

test("labld's own stored-file URLs are read from the blob store by published id, without a network fetch", async () => {
  const key = await blobs.putBytes('a;b\n1;2\n');
  const url = await publishStoredFile(blobs, key, 'my data.csv');
  assert.match(url, /\/annotator\/files\/[A-Za-z0-9_-]{22}\/my%20data\.csv$/);
  assert.ok(!url.includes(key), 'the URL does not carry the content hash');
  // The default policy refuses loopback: reaching the content proves no fetch happened.
  const source = await openSource(url, { field: 'data_url', blobs });
  assert.equal(source.fileName, 'my data.csv');
  assert.equal(await source.text(), 'a;b\n1;2\n');
});

test('publishing the same blob twice gives two different ids', async () => {
  const key = await blobs.putBytes('same bytes');
  const first = await publishStoredFile(blobs, key, 'x.csv');
  const second = await publishStoredFile(blobs, key, 'x.csv');
  assert.notEqual(first, second);
});

test('an unpublished blob, an old content-hash URL, an unknown id or another name is a 404 naming the field', async () => {
  const key = await blobs.putBytes('c;d\n');
  const url = await publishStoredFile(blobs, key, 'real.csv');
  const id = /\/files\/([^/]+)\//.exec(url)![1]!;
  for (const wrong of [
    storedFileUrl(key, 'real.csv'),
    storedFileUrl('0'.repeat(64), 'x.csv'),
    storedFileUrl('A'.repeat(22), 'real.csv'),
    storedFileUrl(id, 'other.csv'),
    `${url}/extra`,
  ]) {
    await assert.rejects(
      openSource(wrong, { field: 'metadata_url', blobs }),
      (e: unknown) => e instanceof DomainError && e.kind === 'not-found' && e.field === 'metadata_url',
      wrong,
    );
  }
});

test('other URLs go through the guarded fetch (refused on loopback unless allowed)', async () => {
  const server = createServer((_, res) => res.end('x,y\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/dir/table%201.csv`;
  try {
    await assert.rejects(
      openSource(url, { field: 'data_url', blobs, policy: makePolicy() }),
      (e: unknown) => e instanceof DomainError && e.kind === 'forbidden',
    );
    const allowed = makePolicy({ allow: '127.0.0.1' });
    const source = await openSource(url, { field: 'data_url', blobs, policy: allowed });
    assert.equal(source.fileName, 'table 1.csv');
    assert.equal(await source.text(), 'x,y\n');
  } finally {
    server.close();
  }
});
