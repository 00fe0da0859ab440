// The embedded triple store's manifest read while another thread replaces and empties it (the
// endpoint's e2e test once failed under load with ENOENT reading a manifest.json the store had
// just removed): a reader sees the graphs or none, never an error.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { readManifest } from '../../lib/triplestore/embedded/disk.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';

/** Fills and empties the manifest in `dir` until told to stop. */
const WRITER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData.disk).then(({ writeManifest }) => {
    let stop = false;
    parentPort.on('message', () => (stop = true));
    const full = { graphs: { 'urn:g': { file: 'g-1.nt', format: 'application/n-triples', base: 'urn:g', triples: 1 } } };
    const loop = () => {
      for (let i = 0; i < 50; i++) {
        writeManifest(workerData.dir, full);
        writeManifest(workerData.dir, { graphs: {} });
      }
      if (stop) parentPort.postMessage('stopped');
      else setImmediate(loop);
    };
    parentPort.postMessage('started');
    loop();
  });
`;

test('a manifest emptied by another thread reads as no graphs, never as an error', async () => {
  const root = tempDir('labld-disk-');
  const dir = join(root, 'dataset');
  const disk = new URL('../../lib/triplestore/embedded/disk.ts', import.meta.url).href;
  const writer = new Worker(WRITER, { eval: true, workerData: { dir, disk } });
  try {
    await new Promise((resolve, reject) => {
      writer.once('message', resolve);
      writer.once('error', reject);
    });
    const seen = new Set<number>();
    const end = Date.now() + 3000;
    while (Date.now() < end) seen.add(Object.keys(readManifest(dir).graphs).length);
    // Both states were seen: the reads did overlap the writer's changes.
    assert.deepEqual([...seen].sort(), [0, 1]);
  } finally {
    const stopped = new Promise((resolve) => writer.once('message', resolve));
    writer.postMessage('stop');
    await stopped;
    await writer.terminate();
    removeTempDir(root);
  }
});
