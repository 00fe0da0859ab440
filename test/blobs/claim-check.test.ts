import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { checkIn, checkOut, INLINE_BYTES } from '../../lib/blobs/claim-check.ts';
import { tempDir } from '../support/temp.ts';

const store = () => new BlobStore(tempDir('labld-claims-'));

test('a small value travels inline, unchanged', async () => {
  const blobs = store();
  const value = { data_url: 'https://example.org/a.csv', map: { a: 'b' } };
  assert.equal(await checkIn(blobs, value), value);
  assert.equal(await checkOut(blobs, value), value);
});

test('a value larger than the inline limit travels as a claim and comes back equal', async () => {
  const blobs = store();
  const value = { graph: 'ä'.repeat(INLINE_BYTES), count: 3 };
  const claim = await checkIn(blobs, value);
  assert.deepEqual(Object.keys(claim as object), ['$claim']);
  assert.ok(JSON.stringify(claim).length < 200);
  assert.deepEqual(await checkOut(blobs, claim), value);
});

test('a claim on a key that is not a stored blob is refused, not followed as a path', async () => {
  const blobs = store();
  await assert.rejects(checkOut(blobs, { $claim: '../../etc/passwd' }), (error) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'not-found');
    return true;
  });
});
