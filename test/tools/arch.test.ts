// `npm run arch` (tools/arch.ts) run as CI runs it, on small trees of its own: it passes when
// every import keeps to the floors of the tree's docs/architecture.md, and fails on an import
// that points up (a type-only one too) and on a loop between lib/ packages on one floor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../support/temp.ts';

const ARCH = new URL('../../tools/arch.ts', import.meta.url).pathname;

const FLOORS = [
  '# top floor first',
  'app',
  'consumers gateways',
  'app/runtime',
  'lib/catalogue lib/datastore',
  'lib/*',
].join('\n');

/** A tree of files (path → text) with the floors above, and what the script says of it. */
function arch(files: Record<string, string>): { status: number | null; out: string } {
  const root = tempDir('labld-arch-');
  const all = { 'docs/architecture.md': `# floors\n\n\`\`\`floors\n${FLOORS}\n\`\`\`\n`, ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, [ARCH, '--root', root], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

const CLEAN = {
  'app/processes.ts': "import { open } from '../lib/catalogue/open.ts';\nexport const start = open;\n",
  'app/runtime.ts':
    "import type { Store } from '../lib/catalogue/open.ts';\nexport type Runtime = { store: Store };\n",
  'consumers/catalogue.ts': "import type { Runtime } from '../app/runtime.ts';\nexport type R = Runtime;\n",
  'lib/catalogue/open.ts':
    "import { log } from '../process/log.ts';\nimport { table } from '../datastore/table.ts';\n" +
    'export type Store = { name: string };\nexport const open = () => { log(table); };\n',
  'lib/datastore/table.ts':
    "import { log } from '../process/log.ts';\nexport const table = 't';\nlog(table);\n",
  'lib/process/log.ts': 'export const log = (x: unknown) => x;\n',
};

test('a tree that keeps its floors passes, and its room graph is printed with each floor', () => {
  const { status, out } = arch(CLEAN);
  assert.equal(status, 0, out);
  assert.match(out, /^\[4\] app → lib\/catalogue \(1\)$/m);
  assert.match(out, /^\[3\] consumers → app\/runtime \(1\)$/m);
  assert.match(out, /^\[1\] lib\/catalogue → lib\/datastore \(1\), lib\/process \(1\)$/m);
  assert.match(out, /arch: the floors hold/);
});

test('a type-only import pointing up a floor fails, naming the file and the room it reaches', () => {
  const { status, out } = arch({
    ...CLEAN,
    'lib/process/runtime.ts':
      "import type { Store } from '../catalogue/open.ts';\nexport type Runtime = Store;\n",
  });
  assert.equal(status, 1, out);
  assert.match(
    out,
    /upward: lib\/process → lib\/catalogue \(lib\/process\/runtime\.ts imports lib\/catalogue\/open\.ts\)/,
  );
});

test('a shell importing app (above it) fails; its own room app/runtime does not', () => {
  const { status, out } = arch({
    ...CLEAN,
    'gateways/catalogue.ts': "export { start } from '../app/processes.ts';\n",
  });
  assert.equal(status, 1, out);
  assert.match(out, /upward: gateways → app \(gateways\/catalogue\.ts imports app\/processes\.ts\)/);
  assert.doesNotMatch(out, /upward: consumers/);
});

test('a loop between two lib/ packages on one floor fails, listing the imports that make it', () => {
  const { status, out } = arch({
    ...CLEAN,
    // A module URL (how workers are started) counts as an import.
    'lib/datastore/worker.ts': "export const ENTRY = new URL('../catalogue/open.ts', import.meta.url);\n",
  });
  assert.equal(status, 1, out);
  assert.match(out, /loop between lib\/ rooms: lib\/catalogue, lib\/datastore/);
  assert.match(out, /lib\/datastore → lib\/catalogue \(1: lib\/datastore\/worker\.ts…\)/);
  assert.doesNotMatch(out, /upward/);
});

test('a dynamic import and an import() type count too; a room on no floor fails', () => {
  const { status, out } = arch({
    ...CLEAN,
    'lib/process/late.ts':
      "export const late = () => import('../datastore/table.ts');\n" +
      "export type T = typeof import('../catalogue/open.ts');\n",
    'gateways/odd.ts': "import '../lib/process/log.ts';\nimport '../bench/x.ts';\n",
    'bench/x.ts': 'export {};\n',
  });
  assert.equal(status, 1, out);
  assert.match(out, /upward: lib\/process → lib\/datastore \(lib\/process\/late\.ts/);
  assert.match(out, /upward: lib\/process → lib\/catalogue \(lib\/process\/late\.ts/);
  assert.match(out, /on no floor: bench/);
});
