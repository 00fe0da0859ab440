// `labld user add|token|list`, run as a person runs it: a child process of bin/labld.js on a data
// directory, checked through the catalogue store and, beside a running labld, through its login.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { tempDir } from '../support/temp.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import { verifyPassword } from '../../lib/catalogue/auth/passwords.ts';
import { hashToken } from '../../lib/catalogue/auth/tokens.ts';
import { credentialOf, resolveViewer } from '../../lib/catalogue/auth/actor.ts';
import { startLabld } from '../support/labld.ts';
import { CookieJar, getPage, logIn } from '../catalogue/support/login.ts';

const BIN = new URL('../../bin/labld.js', import.meta.url).pathname;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function freshData(): string {
  return tempDir('labld-users-');
}

/** `labld user …` on `dataDir` (embedded: no LABLD_DATABASE_URL), with `input` on stdin. */
function user(dataDir: string, args: string[], input = ''): Run {
  const env = { ...process.env, LABLD_DATA: dataDir, LABLD_LOG_LEVEL: 'error', LABLD_DATABASE_URL: '' };
  const run = spawnSync(process.execPath, [BIN, 'user', ...args], { env, input, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The same, without blocking this process (which may be serving labld meanwhile). */
function userAsync(dataDir: string, args: string[]): Promise<Run & { exitedAt: number }> {
  const env = { ...process.env, LABLD_DATA: dataDir, LABLD_LOG_LEVEL: 'error', LABLD_DATABASE_URL: '' };
  const child = spawn(process.execPath, [BIN, 'user', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (status) => resolve({ status, stdout, stderr, exitedAt: Date.now() })),
  );
}

async function withStore<T>(dataDir: string, work: (store: CatalogueStore) => Promise<T>): Promise<T> {
  const store = await openCatalogueStore({ dataDir, databaseUrl: '' });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const ONE_TIME = /^[a-zA-Z0-9]{5}(-[a-zA-Z0-9]{5}){3}\n$/;

test('user add --admin prints a one-time password, alone on stdout, that verifies against the stored hash', async () => {
  const data = freshData();
  const run = user(data, [
    'add',
    'ada',
    '--admin',
    '--fullname',
    'Ada Lovelace',
    '--email',
    'ada@lab.example',
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, ONE_TIME);
  assert.match(run.stderr, /created user ada \(sysadmin\).*shown only this once/s);
  const password = run.stdout.trim();
  await withStore(data, async (store) => {
    const ada = await store.getUser('ada');
    assert.equal(ada?.sysadmin, true);
    assert.equal(ada?.fullname, 'Ada Lovelace');
    assert.equal(ada?.email, 'ada@lab.example');
    assert.match(ada?.password_hash ?? '', /^scrypt\$/);
    assert.ok(!ada?.password_hash?.includes(password), 'only a hash is stored');
    assert.equal(await verifyPassword(password, ada?.password_hash ?? undefined), true);
    assert.equal(await verifyPassword(`${password}x`, ada?.password_hash ?? undefined), false);
  });
  // Two runs, two different passwords: nothing is a default.
  const other = user(data, ['add', 'bob']);
  assert.equal(other.status, 0, other.stderr);
  assert.notEqual(other.stdout, run.stdout);
  await withStore(data, async (store) => assert.equal((await store.getUser('bob'))?.sysadmin, false));
});

test('user add --password-stdin takes the password from stdin (one trailing line break dropped) and prints none', async () => {
  const data = freshData();
  const run = user(data, ['add', 'carol', '--password-stdin'], 'correct horse battery\n');
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /created user carol with the password from stdin/);
  await withStore(data, async (store) => {
    const hash = (await store.getUser('carol'))?.password_hash ?? undefined;
    assert.equal(await verifyPassword('correct horse battery', hash), true);
  });
});

test('a password the policy refuses, or none on stdin, is a usage error (exit 2) and no user is made', async () => {
  const data = freshData();
  for (const [input, words] of [
    ['short\n', /password: must be at least 12 characters/],
    ['', /stdin was empty/],
    ['first line is long\nsecond line\n', /must be one line/],
  ] as const) {
    const run = user(data, ['add', 'dave', '--password-stdin'], input);
    assert.equal(run.status, 2, `${JSON.stringify(input)}: ${run.stderr}`);
    assert.match(run.stderr, words);
    assert.match(run.stderr, /usage: labld/);
  }
  await withStore(data, async (store) => assert.equal(await store.getUser('dave'), undefined));
});

test('names that cannot be user names, and wrong usage, exit 2 saying why', () => {
  const data = freshData();
  for (const [args, words] of [
    [['add', 'Ada'], /NAME: must be 2 to 100 characters, lowercase letters/],
    [['add', 'a'], /NAME: must be 2 to 100 characters/],
    [['add', '../etc'], /NAME: must be/],
    [['add', `${'x'.repeat(101)}`], /NAME: must be 2 to 100/],
    [['add'], /user add needs a user NAME/],
    [['add', 'ada', 'bob'], /takes one NAME, got 2/],
    [['add', 'ada', '--root'], /Unknown option '--root'/],
    [['token'], /user token needs a user NAME/],
    [['token', 'ada', '--name', ''], /--name: must be 1 to 200 characters/],
    [['list', 'extra'], /user list takes no arguments/],
    [['remove', 'ada'], /unknown user action remove/],
    [[], /user needs add, token or list/],
  ] as const) {
    const run = user(data, [...args]);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, words, args.join(' '));
    assert.equal(run.stdout, '');
  }
});

test('a user that exists already is a clear error (exit 1); the first keeps its password', async () => {
  const data = freshData();
  const first = user(data, ['add', 'ada']);
  assert.equal(first.status, 0, first.stderr);
  const again = user(data, ['add', 'ada', '--admin']);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /^labld: name: "ada" is already in use\n$/);
  assert.equal(again.stdout, '');
  await withStore(data, async (store) => {
    const ada = await store.getUser('ada');
    assert.equal(ada?.sysadmin, false);
    assert.equal(await verifyPassword(first.stdout.trim(), ada?.password_hash ?? undefined), true);
  });
});

test('user token prints a new API token that resolves to its user; only its hash is stored', async () => {
  const data = freshData();
  assert.equal(user(data, ['add', 'ada']).status, 0);
  const run = user(data, ['token', 'ada', '--name', 'nightly import']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^labld_[A-Za-z0-9_-]{49}\n$/);
  assert.match(run.stderr, /new API token "nightly import" for ada/);
  const token = run.stdout.trim();
  const second = user(data, ['token', 'ada']);
  assert.notEqual(second.stdout.trim(), token);
  await withStore(data, async (store) => {
    const viewer = await resolveViewer(store, credentialOf({ authorization: token }, false));
    assert.equal(viewer.user?.name, 'ada');
    const bearer = await resolveViewer(store, credentialOf({ authorization: `Bearer ${token}` }, false));
    assert.equal(bearer.user?.name, 'ada');
    const tokens = await store.listTokens('ada');
    assert.deepEqual(
      tokens.map((t) => t.name),
      ['nightly import', `cli ${new Date().toISOString().slice(0, 10)}`],
    );
    assert.equal(tokens[0]?.token_hash, hashToken(token));
  });
  const nobody = user(data, ['token', 'zed']);
  assert.equal(nobody.status, 1);
  assert.match(nobody.stderr, /NAME: no user "zed" \(make one with labld user add\)/);
});

test('user list shows each user with its role; an empty catalogue says how to make the first admin', () => {
  const data = freshData();
  const empty = user(data, ['list']);
  assert.equal(empty.status, 0);
  assert.equal(empty.stdout, '');
  assert.match(empty.stderr, /no users yet; make the first admin with: labld user add NAME --admin/);
  user(data, ['add', 'bob', '--fullname', 'Bob']);
  user(data, ['add', 'ada', '--admin']);
  const run = user(data, ['list']);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t').slice(0, 3));
  assert.deepEqual(lines, [
    ['ada', 'sysadmin', ''],
    ['bob', 'user', 'Bob'],
  ]);
});

test('beside a running labld: the CLI waits for its write lock, and its password logs in there at once', async (t) => {
  const running = await startLabld();
  t.after(() => running.stop());
  // The running process answers a page from its store first, so its connection is open.
  assert.equal((await getPage(`${running.url}/user/login`, new CookieJar())).status, 200);

  // A second connection holds SQLite's write lock while the CLI starts: the CLI must wait (busy
  // timeout), not fail with "database is locked".
  const holder = await openCatalogueStore({ dataDir: running.dataDir, databaseUrl: '' });
  t.after(() => holder.close());
  let released = 0;
  const { pending } = await holder.transaction(async (tx) => {
    await tx.createUser({ name: 'holder' });
    const started = userAsync(running.dataDir, ['add', 'ada', '--admin']);
    await new Promise((r) => setTimeout(r, 1500));
    released = Date.now();
    // Wrapped: a promise returned bare would be awaited inside the transaction.
    return { pending: started };
  });
  const run = await pending;
  assert.equal(run.status, 0, run.stderr);
  assert.ok(run.exitedAt >= released, 'the CLI finished only after the lock was released');

  const { response } = await logIn(running.url, 'ada', run.stdout.trim());
  assert.equal(response.status, 303);
  assert.equal(response.headers.get('location'), '/');
  const wrong = await logIn(running.url, 'ada', 'not the password');
  assert.equal(wrong.response.status, 401);
});

/** `labld start` on `dataDir` until it listens; its log lines up to then. Stopped with SIGTERM. */
async function startLines(dataDir: string): Promise<string[]> {
  const env = { ...process.env, LABLD_DATA: dataDir, LABLD_LOG_LEVEL: 'info', LABLD_DATABASE_URL: '' };
  const child = spawn(process.execPath, [BIN, 'start', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`labld start did not listen:\n${lines.join('\n')}`)),
      30_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const line of complete) {
        lines.push(line);
        if (line.includes('labld is listening')) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
  });
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  return lines;
}

test('labld start on a catalogue without users says, once, how to make the first admin; with one it does not', async () => {
  const data = freshData();
  const first = (await startLines(data)).filter((l) => l.includes('no users'));
  assert.equal(first.length, 1);
  const entry = JSON.parse(first[0]!) as { level: number; msg: string };
  assert.equal(entry.level, 40, 'a warning');
  assert.match(
    entry.msg,
    /the catalogue has no users yet\. Make the first admin with: labld user add NAME --admin/,
  );
  assert.equal(user(data, ['add', 'ada', '--admin']).status, 0);
  assert.deepEqual(
    (await startLines(data)).filter((l) => l.includes('no users')),
    [],
  );
});

test('/readyz of a running labld reports the catalogue store and the datastore', async (t) => {
  const running = await startLabld();
  t.after(() => running.stop());
  const ready = (await (await fetch(`${running.url}/readyz`)).json()) as { checks: Record<string, string> };
  assert.equal(ready.checks['catalogue-store'], 'ok');
  assert.equal(ready.checks['datastore'], 'ok');
});
