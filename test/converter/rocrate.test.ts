// RO-Crate ZIPs as conversion data: the metadata file is found and read; a ZIP without one,
// a file that is no ZIP, and a zip bomb are refused quickly with a 4xx naming the field.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { isZip, MAX_METADATA_BYTES, readCrateMetadata } from '../../lib/converter/rocrate.ts';
import { CRATE_METADATA_TEXT, writeZip } from './crate.ts';

const refused = (kind: string, detail: RegExp) => (error: Error & { kind?: string }) =>
  error.kind === kind && detail.test(error.message) && /^file: /.test(error.message);

test('the metadata of a crate, at the root or in its folder (the shallowest wins)', async () => {
  const root = await writeZip({ 'ro-crate-metadata.json': CRATE_METADATA_TEXT, 'data/x.csv': 'a,b\n1,2\n' });
  assert.equal(await readCrateMetadata(root), CRATE_METADATA_TEXT);
  const nested = await writeZip({
    'crate/sub/ro-crate-metadata.json': '{"deeper": true}',
    'crate/ro-crate-metadata.json': CRATE_METADATA_TEXT,
  });
  assert.equal(await readCrateMetadata(nested), CRATE_METADATA_TEXT);
});

test('a ZIP without crate metadata, and bytes that are no ZIP, are 422', async () => {
  await assert.rejects(
    readCrateMetadata(await writeZip({ 'notes.txt': 'hello' })),
    refused('invalid', /no RO-Crate/),
  );
  const path = (await writeZip({ 'a.txt': 'a' })).replace(/crate\.zip$/, 'broken.zip');
  writeFileSync(path, Buffer.from('PK\u0003\u0004 this is not a zip at all'));
  await assert.rejects(readCrateMetadata(path), refused('invalid', /not a readable ZIP/));
});

test('a zip bomb (metadata inflating past the limit) is refused from its header, at once', async () => {
  const bomb = await writeZip({ 'ro-crate-metadata.json': Buffer.alloc(MAX_METADATA_BYTES + 1024 * 1024) });
  const start = performance.now();
  await assert.rejects(readCrateMetadata(bomb), refused('too-large', /inflates to \d+ bytes/));
  assert.ok(performance.now() - start < 5000);
});

test('isZip looks at the local file header magic', () => {
  assert.equal(isZip(Buffer.from('PK\u0003\u0004rest')), true);
  assert.equal(isZip(Buffer.from('{"@context"')), false);
});

/** The ZIP at `path` with general-purpose `flags` set on every entry (local and central headers). */
function withEntryFlags(path: string, flags: number): string {
  const bytes = readFileSync(path);
  for (let i = 0; i + 4 <= bytes.length; i++) {
    const signature = bytes.readUInt32LE(i);
    // Local file header: flags at +6; central directory header: flags at +8.
    if (signature === 0x04034b50) bytes.writeUInt16LE(bytes.readUInt16LE(i + 6) | flags, i + 6);
    if (signature === 0x02014b50) bytes.writeUInt16LE(bytes.readUInt16LE(i + 8) | flags, i + 8);
  }
  const out = path.replace(/\.zip$/, `-flags-${flags}.zip`);
  writeFileSync(out, bytes);
  return out;
}

test('an encrypted crate metadata entry is a 422 saying so, naming the entry and the field', async () => {
  const crate = await writeZip({ 'crate/ro-crate-metadata.json': CRATE_METADATA_TEXT, 'crate/a.csv': 'a' });
  await assert.rejects(readCrateMetadata(withEntryFlags(crate, 0x1), 'data_content'), {
    kind: 'invalid',
    field: 'data_content',
    message:
      'data_content: entry crate/ro-crate-metadata.json is encrypted; labld reads unencrypted ZIP files',
  });
  // Strong encryption (PKWARE SES) stops the ZIP reader before any entry name is known.
  await assert.rejects(readCrateMetadata(withEntryFlags(crate, 0x41)), {
    kind: 'invalid',
    field: 'file',
    message: 'file: an entry (strong encryption) is encrypted; labld reads unencrypted ZIP files',
  });
});
