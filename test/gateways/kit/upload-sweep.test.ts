// Start-up sweep of LABLD_DATA/uploads: empty folders a stopped process left are removed; a
// fresh empty one (another gateway process may be receiving into it) and any with a file stay.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { createServer } from '../../../gateways/kit/index.ts';
import { sampleGateway } from './support.ts';

test('createServer removes old empty upload folders and leaves the rest', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'labld-sweep-'));
  const uploads = path.join(dataDir, 'uploads');
  const old = new Date(Date.now() - 10 * 60_000);
  for (const name of ['old-empty', 'old-with-file', 'fresh-empty'])
    mkdirSync(path.join(uploads, name), { recursive: true });
  writeFileSync(path.join(uploads, 'old-with-file', 'upload.csv'), 'a;b\n');
  for (const name of ['old-empty', 'old-with-file']) utimesSync(path.join(uploads, name), old, old);
  const server = await createServer({
    gateways: [sampleGateway()],
    dataDir,
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
  });
  try {
    assert.deepEqual(readdirSync(uploads).sort(), ['fresh-empty', 'old-with-file']);
  } finally {
    await server.close(0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
