// Temporary directories for tests, removed when the test process exits: node:test runs each
// file in its own process, and an 'exit' handler runs whether the tests passed, failed or
// threw, so nothing is left in the system temp folder (only a killed process leaves its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

function removeAll(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/** A fresh directory `<tmp>/<prefix>XXXXXX`, removed at exit (or earlier by `removeTempDir`). */
export function tempDir(prefix: string): string {
  if (made.size === 0) process.once('exit', removeAll);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes a directory made by tempDir now (a long test file that makes many). */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  made.delete(dir);
}
