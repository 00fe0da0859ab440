// People in a labld's store, as `labld user add` makes them: each with the same password, and an
// `owner` with an API token who makes the datasets through the Action API.
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import type { Person } from '../actions/support.ts';

/** Makes each named user (not `anonymous`) and the owner; the owner. */
export async function seedPeople(
  dataDir: string,
  names: readonly string[],
  password: string,
): Promise<Person> {
  const store = await openCatalogueStore({ dataDir });
  const hash = await hashPassword(password);
  for (const who of names)
    if (who !== 'anonymous') await store.createUser({ name: who, password_hash: hash });
  const user = await store.createUser({ name: 'owner', password_hash: hash });
  const token = createToken();
  await store.createToken({ user_id: user.id, name: 'seed', token_hash: token.hash });
  await store.close();
  return { user, token: token.token, tokenHash: token.hash };
}
