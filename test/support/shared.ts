// Where the shared fixtures are: `../shared` beside the checkout (also in CI), or LABLD_SHARED_DIR.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';

export const sharedDir = (
  process.env['LABLD_SHARED_DIR'] ?? new URL('../../../shared/', import.meta.url).pathname
).replace(/\/?$/, '/');

function fixture(folder: string, path: string): string {
  const file = `${sharedDir}fixtures/${folder}/${path}`;
  assert.ok(existsSync(file), `fixture missing: ${file} (set LABLD_SHARED_DIR to the shared/ folder)`);
  return file;
}

/** A file of `fixtures/seed-examples/` (the original services' inputs and golden outputs). */
export const seedFixture = (path: string): string => fixture('seed-examples', path);

/** The text of a file of `fixtures/seed-examples/`. */
export const readSeed = (path: string): string => readFileSync(seedFixture(path), 'utf8');

/** A file or folder of `fixtures/peer-suites/` (third-party test suites). */
export const peerSuite = (path: string): string => fixture('peer-suites', path);
