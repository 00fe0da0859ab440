// A database of its own on the PostgreSQL test server (LABLD_TEST_DATABASE_URL, started by
// tools/postgres/server.sh), for a test file or a bench run, dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh database on the server at LABLD_TEST_DATABASE_URL, named `<prefix>_<random>`: its URL, and how to drop it. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.LABLD_TEST_DATABASE_URL ?? '';
  if (!server)
    throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
  return { url: url.toString(), drop };
}
