// The `labld` command line, run as a user runs it: a child process of bin/labld.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { sleep } from '../support/wait.ts';
import { tempDir } from '../support/temp.ts';

const BIN = new URL('../../bin/labld.js', import.meta.url).pathname;
const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  LABLD_DATA: tempDir('labld-cli-'),
  LABLD_LOG_LEVEL: 'error',
  ...extra,
});
const labld = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { env: env(extra), encoding: 'utf8' });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('labld serve annotator --port N answers /info and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', 'annotator', '--port', String(port)], {
    env: env(),
    stdio: 'ignore',
  });
  try {
    let info: Record<string, string> | undefined;
    // Start-up on a loaded machine can take a while; SIGTERM before the handlers exist would kill it.
    const deadline = Date.now() + 60_000;
    while (!info && Date.now() < deadline) {
      info = await fetch(`http://127.0.0.1:${port}/info`)
        .then((r) => r.json() as Promise<Record<string, string>>)
        .catch(() => undefined);
      if (!info) await sleep(100);
    }
    assert.equal(info?.app_name, 'CSVtoCSVW');
  } finally {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'graceful stop exits 0');
  }
});

test('labld topics list and check read topics.yaml', () => {
  const list = labld(['topics', 'list']);
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, /groups=annotator-requests/);
  const check = labld(['topics', 'check']);
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stdout, /topics, schemas compile/);
});

test('labld topics check names a broken topics file', () => {
  const bad = join(tempDir('labld-topics-'), 'topics.yaml');
  spawnSync('sh', ['-c', `printf 'topics:\\n  - {name: a, schema: nope.json}\\n' > ${bad}`]);
  const check = labld(['topics', 'check'], { LABLD_TOPICS: bad });
  assert.equal(check.status, 1);
  assert.match(check.stderr, /unknown schema file nope\.json/);
});

test('labld replay resets a group; usage errors exit 2 with a message', () => {
  const dataEnv = { LABLD_DATA: tempDir('labld-replay-') };
  const ok = labld(
    ['replay', '--topic', 'labld.annotator.requests', '--group', 'annotator-requests', '--from-offset', '0'],
    dataEnv,
  );
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /replays from/);
  const both = labld(['replay', '--topic', 't', '--group', 'g', '--from-offset', '0', '--from-time', 'x']);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /exactly one of --from-offset and --from-time/);
  const unknown = labld(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command frobnicate/);
});

test('every command answers --help with its own usage and exit 0; --version prints the version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  // Every command the general usage lists, so that a new command is walked too.
  const commands = [
    ...new Set([...labld(['--help']).stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!)),
  ];
  assert.deepEqual([...commands].sort(), ['replay', 'rml', 'serve', 'start', 'topics', 'user']);
  for (const command of commands) {
    for (const flag of ['--help', '-h']) {
      const run = labld([command, flag]);
      assert.equal(run.status, 0, `${command} ${flag}: ${run.stderr}`);
      assert.match(run.stdout, new RegExp(`^  ${command}\\b`, 'm'), `${command} ${flag} prints its usage`);
      assert.equal(run.stderr, '');
    }
  }
  // After other arguments too, and without running anything (no mapping file is read).
  const rml = labld(['rml', 'missing.ttl', '--help']);
  assert.equal(rml.status, 0, rml.stderr);
  for (const args of [['--help'], ['help'], []]) {
    const run = labld(args);
    assert.equal(run.status, 0);
    for (const command of ['start', 'serve', 'replay', 'topics', 'rml'])
      assert.match(run.stdout, new RegExp(`^  ${command}\\b`, 'm'));
  }
  const version = labld(['--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `labld ${pkg.version}\n`);
});
