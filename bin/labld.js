#!/usr/bin/env node
// labld's command line. It runs on Node >= 22.18 (TypeScript sources load by type stripping);
// `npm start` and `npx labld` use the Node 24 pinned in package.json.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `labld needs Node.js >= 22.18 (this is ${process.version}). Run it through npm (npm start, npx labld), ` +
      'which uses the Node pinned in package.json, or install a current Node LTS.\n',
  );
  process.exit(1);
}
// Node strips labld's TypeScript at every start, most of a short command's start-up CPU
// (`labld rml`: 0.25-0.30 s of imports, 0.06-0.08 s from the cache); Node's compile cache (its
// default directory in the OS temp dir, each entry checked against its file's source) lets
// later starts skip that. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
// The long-running commands restart in place with the main thread's new space bounded
// (LABLD_SEMI_SPACE_MB) and glibc's malloc giving freed memory back (lib/process/heap.ts);
// this returns when there is nothing to do.
if (process.argv[2] === 'start' || process.argv[2] === 'serve') {
  const { execWithMemorySettings } = await import('../lib/process/heap.ts');
  execWithMemorySettings();
}
const { main } = await import('../app/cli.ts');
try {
  await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`labld: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
