// The Action API's functions on the embedded store, called as the consumer calls them: what
// each answers (CKAN's dict shapes), how it validates (CKAN's words, the field named), and what
// it changes. Expected values are written here from CKAN's documentation, not taken from a run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction, runActionAs } from '../../../lib/catalogue/actions/index.ts';
import type { WireCredential } from '../../../lib/contracts/catalogue.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { hashToken } from '../../../lib/catalogue/auth/tokens.ts';
import { finishStep, queueStep, startStep, type StepStatus } from '../../../lib/chain/status.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { embeddedCatalogue, person, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let catalogue: Catalogue;
let alice: Person;
let bob: Person;
let root: Person;

const as = (who: Person | undefined): WireCredential =>
  who ? { kind: 'token', hash: who.tokenHash } : { kind: 'anonymous' };

function call(who: Person | undefined, action: string, params: Dict = {}, extras = {}): Promise<Dict> {
  return runAction(catalogue.deps, as(who), action, params, extras) as Promise<Dict>;
}

/** The refusal of a call: its kind, field and message. */
async function refusal(
  promise: Promise<unknown>,
): Promise<{ kind: string; field?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { kind: error.kind, ...(error.field ? { field: error.field } : {}), message: error.message };
  }
  assert.fail('the call succeeded');
}

before(async () => {
  catalogue = await embeddedCatalogue();
  alice = await person(catalogue.deps.store, 'alice');
  bob = await person(catalogue.deps.store, 'bob');
  root = await person(catalogue.deps.store, 'root', true);
});
after(() => catalogue.dispose());

describe('package_*', () => {
  it('package_create answers a CKAN package dict and makes its creator an admin of it', async () => {
    const pkg = await call(alice, 'package_create', {
      name: 'tensile',
      title: 'Tensile',
      notes: 'Steel',
      private: 'true',
    });
    assert.equal(pkg.name, 'tensile');
    assert.equal(pkg.title, 'Tensile');
    assert.equal(pkg.notes, 'Steel');
    assert.equal(pkg.private, true);
    assert.equal(pkg.type, 'dataset');
    assert.equal(pkg.state, 'active');
    assert.equal(pkg.organization, null);
    assert.equal(pkg.owner_org, null);
    assert.deepEqual([pkg.resources, pkg.groups, pkg.tags, pkg.extras], [[], [], [], []]);
    assert.equal(pkg.num_resources, 0);
    assert.equal(pkg.creator_user_id, alice.user.id);
    assert.match(pkg.metadata_created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    const members = await call(alice, 'package_collaborator_list', { id: 'tensile' });
    assert.deepEqual(
      members.map((m: Dict) => [m.user_id, m.capacity]),
      [[alice.user.id, 'admin']],
    );
  });

  it('validation errors name the field in CKAN words', async () => {
    assert.deepEqual(await refusal(call(alice, 'package_create', { title: 'no name' })), {
      kind: 'invalid',
      field: 'name',
      message: 'Missing value',
    });
    assert.equal((await refusal(call(alice, 'package_create', { name: 'Not Valid!' }))).field, 'name');
    assert.deepEqual(await refusal(call(alice, 'package_create', { name: 'tensile' })), {
      kind: 'conflict',
      field: 'name',
      // Not "already in use": said to anyone, that would tell that a (private) dataset holds it.
      message:
        'name: "tensile" is not available (a name cannot be one already taken, new, edit, search, or in the form of an id); choose another',
    });
    assert.equal(
      (await refusal(call(alice, 'package_create', { name: 'x-1', private: 'maybe' }))).field,
      'private',
    );
    assert.deepEqual(await refusal(call(alice, 'package_create', { name: 'x-2', title: { a: 1 } })), {
      kind: 'invalid',
      field: 'title',
      message: 'must be text (got an object)',
    });
    assert.equal((await refusal(call(alice, 'package_show', { id: 'x-2' }))).kind, 'not-found');
  });

  it('fields labld does not keep are refused when they carry a value, passed over when empty', async () => {
    assert.equal(
      (await refusal(call(alice, 'package_create', { name: 'tagged', owner_org: 'lab' }))).field,
      'owner_org',
    );
    const copied = await call(alice, 'package_create', {
      name: 'copied',
      tags: [],
      extras: [],
      url: '',
      owner_org: null,
    });
    assert.equal(copied.name, 'copied');
  });

  it('package_patch changes the fields given; package_update replaces them', async () => {
    await call(alice, 'package_create', { name: 'changing', title: 'T', notes: 'N' });
    const patched = await call(alice, 'package_patch', { id: 'changing', title: 'T2' });
    assert.deepEqual([patched.title, patched.notes], ['T2', 'N']);
    const updated = await call(alice, 'package_update', { id: 'changing', name: 'changing' });
    assert.deepEqual([updated.title, updated.notes, updated.private], ['', '', false]);
    assert.equal((await refusal(call(alice, 'package_update', { id: 'changing' }))).field, 'name');
  });

  it('package_update takes back the resources package_show gave, and refuses a different list', async () => {
    const shown = await call(alice, 'package_show', { id: 'changing' });
    await call(alice, 'resource_create', { package_id: 'changing', url: 'https://example.org/a.csv' });
    const withOne = await call(alice, 'package_show', { id: 'changing' });
    const again = await call(alice, 'package_update', { ...withOne, title: 'round trip' });
    assert.equal(again.title, 'round trip');
    assert.equal(again.num_resources, 1);
    assert.equal(
      (await refusal(call(alice, 'package_update', { ...shown, title: 'drop' }))).field,
      'resources',
    );
  });

  it('package_search finds by words, sorts, pages, and lists private datasets only with include_private', async () => {
    const found = await call(bob, 'package_search', { q: 'tensile' });
    assert.equal(found.count, 0); // private, and bob is no member
    const mine = await call(alice, 'package_search', { q: 'tensile', include_private: true });
    assert.deepEqual(
      mine.results.map((d: Dict) => d.name),
      ['tensile'],
    );
    const named = await call(undefined, 'package_search', { sort: 'name asc', rows: 2, start: 0 });
    assert.deepEqual(
      named.results.map((d: Dict) => d.name),
      ['changing', 'copied'],
    );
    assert.equal(
      (await refusal(call(undefined, 'package_search', { sort: 'name; DROP TABLE packages' }))).field,
      'sort',
    );
    assert.equal((await refusal(call(undefined, 'package_search', { rows: -1 }))).field, 'rows');
    assert.equal(
      (await refusal(call(undefined, 'package_search', { fq: 'metadata_modified:[NOW-1DAY TO NOW]' }))).field,
      'fq',
    );
    assert.deepEqual(await call(undefined, 'package_list'), ['changing', 'copied']);
  });

  it('package_delete removes the dataset with its resources and their tables', async () => {
    const pkg = await call(alice, 'package_create', { name: 'doomed' });
    const res = await call(alice, 'resource_create', {
      package_id: pkg.id,
      url: 'https://example.org/d.csv',
    });
    await call(alice, 'datastore_create', {
      resource_id: res.id,
      fields: [{ id: 'x', type: 'int' }],
      records: [[1]],
    });
    assert.equal(await call(alice, 'package_delete', { id: 'doomed' }), null);
    assert.equal((await refusal(call(alice, 'package_show', { id: 'doomed' }))).kind, 'not-found');
    assert.equal((await refusal(catalogue.deps.datastore.info(res.id))).kind, 'not-found');
  });
  it('labld_dataset_permissions says what the caller may do to a dataset they can read', async () => {
    await call(alice, 'package_create', { name: 'perms' });
    assert.deepEqual(await call(alice, 'labld_dataset_permissions', { id: 'perms' }), {
      id: (await call(alice, 'package_show', { id: 'perms' })).id,
      read: true,
      update: true,
      delete: true,
      upload: true,
      manage_members: true,
      load_triplestore: true,
      retry_steps: true,
      dead_letters: true,
    });
    const other = await call(bob, 'labld_dataset_permissions', { id: 'perms' });
    assert.deepEqual(
      [
        other.update,
        other.delete,
        other.upload,
        other.manage_members,
        other.load_triplestore,
        other.retry_steps,
        other.dead_letters,
      ],
      [false, false, false, false, false, false, false],
    );
    assert.equal(
      (await refusal(call(bob, 'labld_dataset_permissions', { id: 'tensile' }))).kind,
      'not-found',
    );
  });
});

describe('resource_*', () => {
  let pkg: Dict;
  before(async () => {
    pkg = await call(alice, 'package_create', { name: 'files' });
  });

  it('resource_create from an upload the gateway stored: size, hash, format and download URL', async () => {
    const blob = await catalogue.deps.blobs.putBytes('a,b\n1,2\n');
    const upload = { blob, filename: 'data.csv', mimetype: 'text/csv', size: 8 };
    const res = await call(alice, 'resource_create', { package_id: 'files', description: 'raw' }, { upload });
    assert.equal(res.package_id, pkg.id);
    assert.equal(res.name, 'data.csv');
    assert.equal(res.format, 'CSV');
    assert.equal(res.size, 8);
    assert.equal(res.hash, blob);
    assert.equal(res.url_type, 'upload');
    assert.equal(res.url, `http://labld.test/dataset/${pkg.id}/resource/${res.id}/download/data.csv`);
    assert.equal(res.mimetype, 'text/csv');
    assert.equal(res.description, 'raw');
    assert.equal(res.datastore_active, false);
    assert.deepEqual(await call(undefined, 'labld_resource_download', { id: res.id }), {
      blob,
      filename: 'data.csv',
      mimetype: 'text/csv',
      size: 8,
    });
  });

  it('an upload over LABLD_UPLOAD_LIMIT is refused naming upload, and nothing is made', async () => {
    const blob = await catalogue.deps.blobs.putBytes('x'.repeat(100));
    const before = (await call(alice, 'package_show', { id: 'files' })).num_resources;
    process.env.LABLD_UPLOAD_LIMIT = '10';
    try {
      const upload = { blob, filename: 'big.csv', mimetype: 'text/csv', size: 100 };
      assert.deepEqual(await refusal(call(alice, 'resource_create', { package_id: 'files' }, { upload })), {
        kind: 'too-large',
        field: 'upload',
        message: 'larger than the limit of 10 bytes (LABLD_UPLOAD_LIMIT)',
      });
    } finally {
      delete process.env.LABLD_UPLOAD_LIMIT;
    }
    assert.equal((await call(alice, 'package_show', { id: 'files' })).num_resources, before);
  });

  it('a link resource needs a web URL; its name and format come from it', async () => {
    const res = await call(alice, 'resource_create', {
      package_id: 'files',
      url: 'https://example.org/x/mapping.yaml',
    });
    assert.deepEqual(
      [res.name, res.format, res.url, res.url_type, res.size],
      ['mapping.yaml', 'YAML', 'https://example.org/x/mapping.yaml', '', null],
    );
    assert.equal((await refusal(call(alice, 'resource_create', { package_id: 'files' }))).field, 'url');
    assert.equal(
      (await refusal(call(alice, 'resource_create', { package_id: 'files', url: 'javascript:alert(1)' })))
        .field,
      'url',
    );
    assert.equal(
      (await refusal(call(alice, 'resource_create', { package_id: 'nope', url: 'https://e.org/a' }))).kind,
      'not-found',
    );
  });

  it('resource_patch keeps what it is not given; resource_update clears it; provenance as the chain writes it', async () => {
    const res = await call(alice, 'resource_create', {
      package_id: 'files',
      url: 'https://example.org/data-metadata.jsonld',
      format: 'json-ld',
      hadPrimarySource: 'https://example.org/data.csv',
      wasGeneratedBy: 'https://annotator.example/api/annotate?return_type=json-ld',
    });
    assert.equal(res.hadPrimarySource, 'https://example.org/data.csv');
    const patched = await call(alice, 'resource_patch', { id: res.id, description: 'descriptor' });
    assert.deepEqual(
      [patched.format, patched.description, patched.hadPrimarySource],
      ['json-ld', 'descriptor', 'https://example.org/data.csv'],
    );
    const updated = await call(alice, 'resource_update', { id: res.id, format: 'JSON-LD' });
    assert.deepEqual(
      [updated.format, updated.description, updated.hadPrimarySource, updated.url],
      ['JSON-LD', '', undefined, 'https://example.org/data-metadata.jsonld'],
    );
  });

  it('resource_delete removes what the chain derived from it and the tables', async () => {
    const { store, datastore } = catalogue.deps;
    const source = await call(alice, 'resource_create', {
      package_id: 'files',
      url: 'https://example.org/s.csv',
    });
    const derived = await store.upsertDerived(
      { package_id: pkg.id, source_resource_id: source.id, step: 'annotate' },
      { name: 's-metadata.jsonld' },
    );
    await datastore.create(source.id, [{ id: 'v', type: 'numeric' }], [[1]]);
    assert.equal(await call(alice, 'resource_delete', { id: source.id }), null);
    assert.equal(await store.getResource(derived.id), undefined);
    assert.equal((await refusal(call(alice, 'resource_show', { id: source.id }))).kind, 'not-found');
    assert.equal((await refusal(datastore.info(source.id))).kind, 'not-found');
  });
});

describe('groups and collaborators', () => {
  it('group_create is for sysadmins; group_list and group_show for anyone', async () => {
    assert.equal((await refusal(call(alice, 'group_create', { name: 'mappings' }))).kind, 'forbidden');
    const group = await call(root, 'group_create', { name: 'mappings', title: 'Mapping library' });
    assert.deepEqual(
      [group.name, group.title, group.package_count, group.is_organization],
      ['mappings', 'Mapping library', 0, false],
    );
    assert.deepEqual(await call(undefined, 'group_list'), ['mappings']);
    assert.equal((await refusal(call(root, 'group_create', { name: 'mappings' }))).kind, 'conflict');
  });

  it('member_create puts a dataset into a group; user members are refused', async () => {
    await call(alice, 'package_create', { name: 'map-steel' });
    const member = await call(alice, 'member_create', {
      id: 'mappings',
      object: 'map-steel',
      object_type: 'package',
      capacity: 'public',
    });
    assert.equal(member.table_name, 'package');
    const group = await call(undefined, 'group_show', { id: 'mappings', include_datasets: true });
    assert.deepEqual(
      group.packages.map((p: Dict) => p.name),
      ['map-steel'],
    );
    assert.equal((await call(undefined, 'package_show', { id: 'map-steel' })).groups[0].name, 'mappings');
    assert.equal(
      (await refusal(call(alice, 'member_create', { id: 'mappings', object: 'bob', object_type: 'user' })))
        .field,
      'object_type',
    );
    assert.equal(
      (
        await refusal(
          call(alice, 'member_create', { id: 'nope', object: 'map-steel', object_type: 'package' }),
        )
      ).kind,
      'not-found',
    );
    const filtered = await call(undefined, 'package_search', { fq: 'groups:mappings' });
    assert.deepEqual(
      filtered.results.map((p: Dict) => p.name),
      ['map-steel'],
    );
  });

  it('collaborators: CKAN capacities member, editor, admin; a member reads, an editor writes', async () => {
    await call(alice, 'package_create', { name: 'shared', private: true });
    assert.equal((await refusal(call(bob, 'package_show', { id: 'shared' }))).kind, 'not-found');
    const made = await call(alice, 'package_collaborator_create', {
      id: 'shared',
      user_id: 'bob',
      capacity: 'member',
    });
    assert.deepEqual([made.user_id, made.capacity], [bob.user.id, 'member']);
    assert.equal((await call(bob, 'package_show', { id: 'shared' })).name, 'shared');
    assert.equal((await refusal(call(bob, 'package_patch', { id: 'shared', title: 'x' }))).kind, 'forbidden');
    await call(alice, 'package_collaborator_create', { id: 'shared', user_id: 'bob', capacity: 'editor' });
    assert.equal((await call(bob, 'package_patch', { id: 'shared', title: 'x' })).title, 'x');
    assert.equal(
      (
        await refusal(
          call(alice, 'package_collaborator_create', { id: 'shared', user_id: 'bob', capacity: 'owner' }),
        )
      ).field,
      'capacity',
    );
    assert.equal(await call(alice, 'package_collaborator_delete', { id: 'shared', user_id: 'bob' }), null);
    assert.equal((await refusal(call(bob, 'package_show', { id: 'shared' }))).kind, 'not-found');
    assert.equal(
      (await refusal(call(alice, 'package_collaborator_delete', { id: 'shared', user_id: 'bob' }))).kind,
      'not-found',
    );
  });
});

describe('datastore_*', () => {
  let rid: string;
  before(async () => {
    await call(alice, 'package_create', { name: 'table' });
    rid = (await call(alice, 'resource_create', { package_id: 'table', url: 'https://example.org/t.csv' }))
      .id;
  });

  it('datastore_create makes the table; again without fields appends', async () => {
    const fields = [
      { id: 'sample', type: 'text' },
      { id: 'force', type: 'numeric' },
    ];
    const made = await call(alice, 'datastore_create', {
      resource_id: rid,
      fields,
      records: [
        { sample: 'a', force: 9 },
        { sample: 'b', force: 10 },
      ],
    });
    assert.deepEqual([made.resource_id, made.total, made.records], [rid, 2, undefined]);
    const more = await call(alice, 'datastore_create', {
      resource_id: rid,
      records: [{ sample: 'c', force: '2.5' }],
    });
    assert.equal(more.total, 3);
    assert.equal(
      (await refusal(call(alice, 'datastore_create', { resource_id: rid, resource: { name: 'x' } }))).field,
      'resource',
    );
  });

  it('datastore_search: numeric sort, filters, q, paging, fields, total and _links', async () => {
    const page = await call(undefined, 'datastore_search', { resource_id: rid, sort: 'force asc', limit: 2 });
    assert.deepEqual(
      page.records.map((r: Dict) => r.force),
      [2.5, 9],
    );
    assert.equal(page.total, 3);
    assert.equal(
      page._links.start,
      `/api/3/action/datastore_search?resource_id=${rid}&sort=force+asc&limit=2`,
    );
    assert.equal(
      page._links.next,
      `/api/3/action/datastore_search?resource_id=${rid}&sort=force+asc&limit=2&offset=2`,
    );
    const filtered = await call(undefined, 'datastore_search', {
      resource_id: rid,
      filters: '{"sample": ["a", "b"]}',
      fields: 'sample',
    });
    assert.deepEqual(filtered.records, [{ sample: 'a' }, { sample: 'b' }]);
    const searched = await call(undefined, 'datastore_search', { id: rid, q: 'c' });
    assert.deepEqual(
      searched.records.map((r: Dict) => r.sample),
      ['c'],
    );
  });

  it('a filter on a missing column, a sort injection: refused naming the parameter, the table intact', async () => {
    assert.equal(
      (await refusal(call(undefined, 'datastore_search', { resource_id: rid, filters: { nope: 1 } }))).field,
      'filters',
    );
    assert.equal(
      (await refusal(call(undefined, 'datastore_search', { resource_id: rid, sort: 'name; DROP TABLE x' })))
        .field,
      'sort',
    );
    assert.equal(
      (await refusal(call(undefined, 'datastore_search', { resource_id: rid, sort: 'force; DROP TABLE x' })))
        .field,
      'sort',
    );
    assert.equal((await call(undefined, 'datastore_search', { resource_id: rid })).total, 3);
  });

  it('datastore_delete with filters removes the matching rows; without, the table', async () => {
    assert.equal(
      (await call(alice, 'datastore_delete', { resource_id: rid, filters: { sample: 'a' } })).deleted,
      1,
    );
    assert.equal((await call(undefined, 'datastore_search', { resource_id: rid })).total, 2);
    await call(alice, 'datastore_delete', { resource_id: rid });
    assert.equal(
      (await refusal(call(undefined, 'datastore_search', { resource_id: rid }))).kind,
      'not-found',
    );
  });
});

describe('datastore_* while the chain imports the table', () => {
  it('datastore_create and datastore_delete are refused with a 409 naming the resource while the import is queued or running', async () => {
    await call(alice, 'package_create', { name: 'imported' });
    const source = await call(alice, 'resource_create', {
      package_id: 'imported',
      url: 'https://example.org/imported.csv',
    });
    const fields = [{ id: 'x', type: 'int' }];
    await call(alice, 'datastore_create', { resource_id: source.id, fields, records: [[1], [2]] });
    const setImport = (status: StepStatus) =>
      catalogue.deps.store.putStepStatus({
        source_resource_id: source.id,
        package_id: source.package_id,
        status,
      });
    const at = '2026-01-01T00:00:00.000Z';
    const queued = queueStep(undefined, { step: 'import', run: 'r1', at });
    const running = startStep(queued, 'r1', at);
    for (const status of [queued, running]) {
      await setImport(status);
      for (const write of [
        call(alice, 'datastore_create', { resource_id: source.id, fields, records: [[3]] }),
        call(alice, 'datastore_create', { resource_id: source.id, records: [[3]] }),
        call(alice, 'datastore_delete', { resource_id: source.id }),
        call(root, 'datastore_delete', { resource_id: source.id, filters: { x: 1 } }),
      ]) {
        const error = await write.then(
          () => assert.fail('the write was not refused'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'conflict');
        assert.equal(error.field, 'resource_id');
        const message = `resource ${source.id}: the automation chain's import step fills this table from the resource's CSV (import ${status.state}); write to it when the import is done`;
        assert.equal(error.message, message);
        // At the edge: CKAN's validation error, 409, its message keyed by the parameter.
        assert.deepEqual(ckanError(error), {
          status: 409,
          body: { success: false, error: { __type: 'Validation Error', resource_id: [message] } },
        });
      }
      // Nothing changed: the two rows are there, the table kept.
      assert.equal((await catalogue.deps.datastore.info(source.id)).count, 2);
    }
    // A finished import gives the table back to its writers (CKAN's append).
    await setImport(finishStep(running, 'r1', at, { durationMs: 1, rows: 2 }));
    assert.equal(
      (await call(alice, 'datastore_create', { resource_id: source.id, records: [[3]] })).total,
      3,
    );
    // Reading is never refused, not even while importing.
    await setImport(startStep(queueStep(undefined, { step: 'import', run: 'r2', at }), 'r2', at));
    assert.equal((await call(undefined, 'datastore_search', { resource_id: source.id })).total, 3);
  });
});

describe('users, tokens, status', () => {
  it('user_show: the e-mail only to the user themself and sysadmins; never a password hash', async () => {
    const own = await call(alice, 'user_show', {});
    assert.deepEqual([own.name, own.email, own.fullname], ['alice', 'alice@lab.test', 'ALICE']);
    const other = await call(bob, 'user_show', { id: 'alice' });
    assert.equal(other.email, undefined);
    assert.equal((await call(root, 'user_show', { id: 'alice' })).email, 'alice@lab.test');
    for (const shown of [own, other]) assert.equal('password_hash' in shown, false);
    assert.equal((await refusal(call(undefined, 'user_show', { id: 'alice' }))).kind, 'unauthorized');
    assert.equal((await refusal(call(bob, 'user_show', { id: 'nobody' }))).kind, 'not-found');
  });

  it('api_token_create returns the token once; the store keeps only its hash; it works; revoke ends it', async () => {
    const { token } = (await call(alice, 'api_token_create', { user: 'alice', name: 'laptop' })) as {
      token: string;
    };
    const listed = await call(alice, 'api_token_list', { user_id: 'alice' });
    const entry = listed.find((t: Dict) => t.name === 'laptop');
    assert.ok(entry);
    const stored = await catalogue.deps.store.findTokenByHash(hashToken(token));
    assert.equal(stored?.id, entry.id);
    assert.equal(JSON.stringify(listed).includes(token), false);
    const viewer = await runAction(
      catalogue.deps,
      { kind: 'token', hash: hashToken(token) },
      'user_show',
      {},
    );
    assert.equal((viewer as Dict).name, 'alice');
    await call(alice, 'api_token_revoke', { jti: entry.id });
    assert.equal(
      (await refusal(runAction(catalogue.deps, { kind: 'token', hash: hashToken(token) }, 'status_show', {})))
        .kind,
      'unauthorized',
    );
  });

  it('status_show and an unknown action', async () => {
    const status = await call(undefined, 'status_show');
    assert.equal(status.site_url, 'http://labld.test');
    const viewer = { actor: 'anonymous' as const, user: undefined, sessionHash: undefined };
    assert.deepEqual(await refusal(runActionAs(catalogue.deps, viewer, 'package_frobnicate', {})), {
      kind: 'not-found',
      field: 'action',
      message: 'Action name not known: package_frobnicate',
    });
  });
});
