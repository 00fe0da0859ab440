// The site's actions CKAN clients call first: user_list (for logged-in callers, as labld keeps
// its members' list off the internet), help_show and status_show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { embeddedCatalogue, person, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('user_list, help_show, status_show', () => {
  let catalogue: Catalogue;
  let ada: Person;
  let root: Person;

  const call = (who: Person | undefined, action: string, params: Dict = {}) =>
    runAction(
      catalogue.deps,
      who ? { kind: 'token', hash: who.tokenHash } : { kind: 'anonymous' },
      action,
      params,
    ) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  before(async () => {
    catalogue = await embeddedCatalogue();
    ada = await person(catalogue.deps.store, 'ada');
    root = await person(catalogue.deps.store, 'root', true);
    await person(catalogue.deps.store, 'bob');
  });
  after(() => catalogue.dispose());

  it('user_list: dicts in name order, names with all_fields=false, q; e-mails only to their owner and sysadmins', async () => {
    const users = (await call(ada, 'user_list')) as Dict[];
    assert.deepEqual(
      users.map((u) => u.name),
      ['ada', 'bob', 'root'],
    );
    assert.deepEqual(
      users.map((u) => u.email),
      ['ada@lab.test', undefined, undefined],
    );
    assert.deepEqual(
      ((await call(root, 'user_list')) as Dict[]).map((u) => u.email),
      ['ada@lab.test', 'bob@lab.test', 'root@lab.test'],
    );
    assert.deepEqual(await call(ada, 'user_list', { all_fields: false }), ['ada', 'bob', 'root']);
    assert.deepEqual(await call(ada, 'user_list', { q: 'BO', all_fields: 'false' }), ['bob']);
    // The e-mail is searched only for whoever may see it.
    assert.deepEqual(await call(ada, 'user_list', { q: 'bob@', all_fields: false }), []);
    assert.deepEqual(await call(root, 'user_list', { q: 'bob@', all_fields: false }), ['bob']);
    await assert.rejects(
      call(undefined, 'user_list'),
      (e) => e instanceof DomainError && e.kind === 'unauthorized',
    );
  });

  it('help_show says what an action is; an unknown one is Not Found naming name', async () => {
    assert.match(
      await call(undefined, 'help_show', { name: 'package_search' }),
      /^package_search: CKAN's package_search/,
    );
    assert.match(await call(undefined, 'help_show', { name: 'package_create' }), /\(POST\)/);
    await assert.rejects(
      call(undefined, 'help_show', { name: 'no_such_action' }),
      (e) => e instanceof DomainError && e.kind === 'not-found' && e.field === 'name',
    );
  });

  it('status_show lists the CKAN extensions labld serves', async () => {
    const status = await call(undefined, 'status_show');
    assert.deepEqual([status.ckan_version, status.extensions], ['2.10.0', ['datastore', 'dcat']]);
  });
});
