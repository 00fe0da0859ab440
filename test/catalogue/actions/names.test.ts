// Dataset names that cannot be had (issue 25): one in the form of an id would be unreachable by
// its name, since a look-up by id or name takes the id first; CKAN's reserved words are its
// pages' paths (`/dataset/new`). Refused on create, update and patch as a name that is not
// available, on the name field — as a name taken by another dataset is.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { embeddedCatalogue, person, type Catalogue, type Person } from './support.ts';

let catalogue: Catalogue;
let alice: Person;

const call = (action: string, params: Record<string, unknown>) =>
  runAction(catalogue.deps, { kind: 'token', hash: alice.tokenHash }, action, params) as Promise<
    Record<string, string>
  >;

/** The Action API's answer to a refused call: its status and CKAN error. */
async function refused(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return ckanError(error);
    throw error;
  }
  assert.fail('the call succeeded');
}

before(async () => {
  catalogue = await embeddedCatalogue();
  alice = await person(catalogue.deps.store, 'alice');
});
after(() => catalogue.dispose());

describe('names that cannot be had', () => {
  it('a name in the form of another dataset’s id is refused, and that dataset stays reachable', async () => {
    const first = await call('package_create', { name: 'first' });
    await call('package_create', { name: 'second' });
    for (const [action, params] of [
      ['package_create', { name: first.id }],
      ['package_update', { id: 'second', name: first.id }],
      ['package_patch', { id: 'second', name: first.id }],
    ] as const) {
      const answer = await refused(call(action, params));
      assert.equal(answer.status, 409, action);
      assert.equal(answer.body.error.__type, 'Validation Error');
      assert.match(String(answer.body.error.name), /is not available/, action);
    }
    assert.equal((await call('package_show', { id: first.id })).name, 'first');
    assert.equal((await call('package_show', { id: 'second' })).name, 'second');
  });

  it('so is any name in that form, and CKAN’s reserved words; other names are kept', async () => {
    for (const name of [randomUUID(), 'new', 'edit', 'search']) {
      assert.equal((await refused(call('package_create', { name }))).status, 409, name);
    }
    // Near misses are names like any other.
    for (const name of ['new-data', `x${randomUUID()}`, randomUUID().replaceAll('-', '')]) {
      assert.equal((await call('package_create', { name })).name, name);
    }
  });
});
