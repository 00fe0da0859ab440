// A growing blob followed while its producer writes it: the first bytes before the last are
// made, the whole when the reply names the blob, the reply's error before any byte, an errored
// stream after some, and the finished blob when the reply came before the follower looked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { storeDownloadStream } from '../../lib/blobs/download.ts';
import { followGrowing, newGrowingId } from '../../lib/blobs/growing.ts';
import { invalid } from '../../lib/process/errors.ts';
import { tempDir } from '../support/temp.ts';

const store = () => new BlobStore(tempDir('labld-growing-'));

/** Chunks that stop after the first until `gate` settles: true goes on, false fails. */
function paced(first: string, rest: string, gate: Promise<boolean>): AsyncIterable<string> {
  return (async function* () {
    yield first;
    if (!(await gate)) throw invalid('source: cut off (test)', 'source');
    yield rest;
  })();
}

/** A download stored as a growing blob from `paced` chunks; `release` lets it go on. */
function pacedDownload(blobs: BlobStore, first: string, rest: string) {
  const id = newGrowingId();
  let release: (go: boolean) => void = () => {};
  const gate = new Promise<boolean>((resolve) => (release = resolve));
  const chunks = paced(first, rest, gate);
  const reply = storeDownloadStream(blobs, chunks, 'application/octet-stream', 'x.bin', { growing: id });
  return { id, reply, release };
}

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += (chunk as Buffer).toString();
  return text;
}

test('the first bytes are served before the producer has made the rest; the end when the reply names the blob', async () => {
  const blobs = store();
  const { id, reply, release } = pacedDownload(blobs, 'first part;', 'second part');
  const stream = await followGrowing(blobs, id, reply);
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  assert.equal((first.value as Buffer).toString(), 'first part;', 'before the producer went on');
  release(true);
  let rest = '';
  for (let next = await chunks.next(); !next.done; next = await chunks.next())
    rest += (next.value as Buffer).toString();
  assert.equal(rest, 'second part');
  const stored = await reply;
  assert.equal(readFileSync(blobs.path(stored.blob), 'utf8'), 'first part;second part');
  assert.equal(existsSync(blobs.growingPath(id)), false, 'the growing file became the blob');
});

test("the reply's error is thrown when it comes before any byte", async () => {
  const blobs = store();
  const id = newGrowingId();
  const failing: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(invalid('iris: nothing selected (test)', 'iris')),
    }),
  };
  const reply = storeDownloadStream(blobs, failing, 'application/zip', 'b.zip', { growing: id });
  await assert.rejects(followGrowing(blobs, id, reply), { kind: 'invalid', field: 'iris' });
  assert.equal(existsSync(blobs.growingPath(id)), false, 'nothing is left behind');
});

test('a failure after the first bytes errors the stream, so that its reader never sees an end', async () => {
  const blobs = store();
  const { id, reply, release } = pacedDownload(blobs, 'PK', 'never');
  const stream = await followGrowing(blobs, id, reply);
  release(false);
  await assert.rejects(readAll(stream), /cut off/);
});

test('a reply that came before the follower looked is served from the finished blob', async () => {
  const blobs = store();
  const id = newGrowingId();
  const reply = storeDownloadStream(blobs, Readable.from(['whole ', 'answer']), 'text/plain', 'w.txt', {
    growing: id,
  });
  await reply;
  assert.equal(await readAll(await followGrowing(blobs, id, reply)), 'whole answer');
});

test('an id that is not one the gateway makes is refused, naming the field', () => {
  assert.throws(() => store().growingPath('../tmp/x'), { kind: 'invalid', field: 'growing' });
});
