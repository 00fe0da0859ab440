import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { tempDir } from '../support/temp.ts';

const store = () => new BlobStore(tempDir('labld-blobs-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('a blob is keyed by the SHA-256 of its bytes, whichever way it is stored', async () => {
  const blobs = store();
  const text = 'Zeit [s];Kraft [kN]\n1;2\n';
  const fromBytes = await blobs.putBytes(text);
  const fromStream = await blobs.putStream(
    Readable.from([Buffer.from(text.slice(0, 5)), Buffer.from(text.slice(5))]),
  );
  const file = join(tempDir('labld-upload-'), 'upload.csv');
  writeFileSync(file, text);
  const fromFile = await blobs.putFile(file);
  assert.equal(fromBytes, sha256(text));
  assert.equal(fromStream, fromBytes);
  assert.equal(fromFile, fromBytes);
  assert.equal(existsSync(file), false, 'an upload is moved into the store');
  assert.equal(readFileSync(blobs.path(fromBytes), 'utf8'), text);
  assert.equal(blobs.size(fromBytes), Buffer.byteLength(text));
});

test('an upload hashed as it was written is moved in under that key; a key that is no SHA-256 is refused', async () => {
  const blobs = store();
  const text = 'Zeit [s];Kraft [kN]\n1;2\n';
  const dir = tempDir('labld-upload-');
  const file = join(dir, 'upload.csv');
  writeFileSync(file, text);
  await assert.rejects(blobs.putFile(file, '../x'), /not a hex SHA-256/);
  assert.equal(existsSync(file), true, 'a refused upload stays where it was');
  const key = await blobs.putFile(file, sha256(text));
  assert.equal(key, sha256(text));
  assert.equal(existsSync(file), false);
  assert.equal(readFileSync(blobs.path(key), 'utf8'), text);
});

test('unknown or malformed keys are a 404, never a path outside the store', () => {
  const blobs = store();
  for (const key of ['../../etc/passwd', 'a'.repeat(64), '', 'ABC']) {
    assert.throws(
      () => blobs.path(key, 'file'),
      (e: unknown) => e instanceof DomainError && e.kind === 'not-found' && e.field === 'file',
    );
  }
});

test('a failing source stream leaves no blob and no temporary file behind', async () => {
  const blobs = store();
  const failing = new Readable({
    read() {
      this.destroy(new Error('connection reset'));
    },
  });
  await assert.rejects(blobs.putStream(failing), /connection reset/);
  assert.deepEqual(readdirSync(join(blobs.dir, 'tmp')), []);
});
