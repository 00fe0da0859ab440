// People in a labld's store, as `labld user add` makes them: each with the same password and an
// API token, and an `owner` who makes the datasets through the Action API.
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import type { Person } from '../actions/support.ts';

/** Makes each named user (not `anonymous`) and `owner`; each by name. */
export async function seedPeople(
  dataDir: string,
  names: readonly string[],
  password: string,
): Promise<Map<string, Person>> {
  // The store the labld under test runs on (PostgreSQL when LABLD_DATABASE_URL is set).
  const store = await openCatalogueStore({ dataDir, databaseUrl: process.env['LABLD_DATABASE_URL'] ?? '' });
  const hash = await hashPassword(password);
  const people = new Map<string, Person>();
  for (const who of [...names.filter((n) => n !== 'anonymous'), 'owner']) {
    const user = await store.createUser({ name: who, password_hash: hash });
    const token = createToken();
    await store.createToken({ user_id: user.id, name: 'seed', token_hash: token.hash });
    people.set(who, { user, token: token.token, tokenHash: token.hash });
  }
  await store.close();
  return people;
}
