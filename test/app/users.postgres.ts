// `labld user` on PostgreSQL (LABLD_DATABASE_URL), against the server .ci/run starts
// (LABLD_TEST_DATABASE_URL): a database of its own per run, dropped after. A labld on the same
// database logs the CLI's user in. Unset or unreachable is a failure, never a skip.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { verifyPassword } from '../../lib/catalogue/auth/passwords.ts';
import { credentialOf, resolveViewer } from '../../lib/catalogue/auth/actor.ts';
import { startLabld } from '../support/labld.ts';
import { logIn } from '../catalogue/support/login.ts';

const server = process.env.LABLD_TEST_DATABASE_URL ?? '';
const database = `labld_cli_${randomBytes(5).toString('hex')}`;
let url = '';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

before(async () => {
  if (!server)
    throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  await admin(`CREATE DATABASE ${database}`);
  const u = new URL(server);
  u.pathname = `/${database}`;
  url = u.toString();
});
after(async () => {
  if (server) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

function user(args: string[], input = '') {
  // A data directory that holds no catalogue: the database URL must be what is used.
  const data = mkdtempSync(join(tmpdir(), 'labld-pg-cli-'));
  const env = { ...process.env, LABLD_DATA: data, LABLD_DATABASE_URL: url };
  try {
    return spawnSync(
      process.execPath,
      [new URL('../../bin/labld.js', import.meta.url).pathname, 'user', ...args],
      {
        env,
        input,
        encoding: 'utf8',
      },
    );
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

test('user add, token and list work on PostgreSQL, and a labld on that database logs the user in', async (t) => {
  const add = user(['add', 'ada', '--admin']);
  assert.equal(add.status, 0, add.stderr);
  const password = add.stdout.trim();
  const withStdin = user(['add', 'bob', '--password-stdin'], 'bob types this password\n');
  assert.equal(withStdin.status, 0, withStdin.stderr);
  const again = user(['add', 'ada']);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /name: "ada" is already in use/);
  const token = user(['token', 'ada']);
  assert.equal(token.status, 0, token.stderr);
  const list = user(['list']);
  assert.deepEqual(
    list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t').slice(0, 2)),
    [
      ['ada', 'sysadmin'],
      ['bob', 'user'],
    ],
  );

  const store = await openCatalogueStore({ dataDir: '', databaseUrl: url });
  try {
    assert.equal(
      await verifyPassword(password, (await store.getUser('ada'))?.password_hash ?? undefined),
      true,
    );
    const viewer = await resolveViewer(store, credentialOf({ authorization: token.stdout.trim() }, false));
    assert.equal(viewer.user?.name, 'ada');
  } finally {
    await store.close();
  }

  const previous = process.env.LABLD_DATABASE_URL;
  process.env.LABLD_DATABASE_URL = url;
  t.after(() => {
    if (previous === undefined) delete process.env.LABLD_DATABASE_URL;
    else process.env.LABLD_DATABASE_URL = previous;
  });
  const running = await startLabld();
  t.after(() => running.stop());
  const { response } = await logIn(running.url, 'bob', 'bob types this password');
  assert.equal(response.status, 303);
});
