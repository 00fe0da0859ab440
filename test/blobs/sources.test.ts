import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { openSource, storedFileUrl } from '../../lib/sources.ts';
import { makePolicy } from '../../lib/fetch/guarded-fetch.ts';
import { ClientError } from '../../lib/errors.ts';

const blobs = new BlobStore(mkdtempSync(join(tmpdir(), 'labld-sources-')));

test("labld's own stored-file URLs are read from the blob store, without a network fetch", async () => {
  const key = await blobs.putBytes('a;b\n1;2\n');
  const url = storedFileUrl(key, 'my data.csv');
  assert.match(url, /\/annotator\/files\/[0-9a-f]{64}\/my%20data\.csv$/);
  // The default policy refuses loopback: reaching the content proves no fetch happened.
  const source = await openSource(url, { field: 'data_url', blobs });
  assert.equal(source.fileName, 'my data.csv');
  assert.equal(await source.text(), 'a;b\n1;2\n');
});

test('an unknown stored-file key is a 404 naming the field', async () => {
  await assert.rejects(
    openSource(storedFileUrl('0'.repeat(64), 'x.csv'), { field: 'metadata_url', blobs }),
    (e: unknown) => e instanceof ClientError && e.status === 404 && e.field === 'metadata_url',
  );
});

test('other URLs go through the guarded fetch (refused on loopback unless allowed)', async () => {
  const server = createServer((_, res) => res.end('x,y\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/dir/table%201.csv`;
  try {
    await assert.rejects(
      openSource(url, { field: 'data_url', blobs, policy: makePolicy() }),
      (e: unknown) => e instanceof ClientError && e.status === 403,
    );
    const allowed = makePolicy({ allow: '127.0.0.1' });
    const source = await openSource(url, { field: 'data_url', blobs, policy: allowed });
    assert.equal(source.fileName, 'table 1.csv');
    assert.equal(await source.text(), 'x,y\n');
  } finally {
    server.close();
  }
});
