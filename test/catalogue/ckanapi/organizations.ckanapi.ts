// Organizations driven by a real CKAN client, PyPI's ckanapi: its Python API (organizations.py:
// a sysadmin makes one, gives roles, an editor puts datasets in, and what each role may then do)
// and its CLI (action calls; dump organizations and datasets, the organization deleted, then
// load both back: the organization comes back under its id and owns its dataset again). .ci/run
// sets LABLD_CKANAPI_PYTHON; unset, this fails rather than skips.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { api, person, type Person } from '../actions/support.ts';
import { runClient } from '../../support/python.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const python = process.env.LABLD_CKANAPI_PYTHON ?? '';
const script = new URL('./organizations.py', import.meta.url).pathname;

let labld: Running & { dataDir: string };
let root: Person;
let out: Dict;

/** A program of the venv (`python` or `ckanapi`), its stdout once it exits 0. */
function run(program: string, args: string[]): Promise<string> {
  const bin = dirname(python);
  return runClient(program === 'python' ? python : join(bin, program), args, {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    what: `${program} ${args.slice(0, 2).join(' ')}`,
  });
}

const cli = (...args: string[]) => run('ckanapi', [...args, '-r', labld.url, '-a', root.token]);

before(async () => {
  if (!python)
    throw new Error('LABLD_CKANAPI_PYTHON is not set: a python with ckanapi installed (see .ci/run)');
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  root = await person(store, 'root', true);
  const people = [await person(store, 'eddie'), await person(store, 'mia'), await person(store, 'otto')];
  await store.close();
  out = JSON.parse(
    await run('python', [script, labld.url, root.token, ...people.map((p) => p.token)]),
  ) as Dict;
});

after(() => labld?.stop());

test('organization_create by a sysadmin gives a CKAN organization dict; others are NotAuthorized', () => {
  const org = out.created;
  assert.deepEqual(
    [org.name, org.title, org.description, org.type, org.is_organization, org.state],
    ['lab', 'The Lab', 'Tensile tests', 'organization', true, 'active'],
  );
  assert.equal(out.not_sysadmin.raised, 'NotAuthorized');
});

test("datasets get owner_org and the organization dict; an editor's, not a member's; an unknown one is a ValidationError", () => {
  assert.equal(out.private.owner_org, out.created.id);
  assert.deepEqual([out.private.organization.name, out.private.private], ['lab', true]);
  assert.equal(out.member_create.raised, 'NotAuthorized');
  assert.equal(out.no_org.raised, 'ValidationError');
  assert.ok(out.no_org.error.owner_org, JSON.stringify(out.no_org.error));
});

test('roles through the organization: a member reads, an editor edits; outsiders get NotFound as for a missing dataset', () => {
  assert.equal(out.member_show.returned.name, 'runs');
  assert.equal(out.member_patch.raised, 'NotAuthorized');
  assert.equal(out.editor_patch.returned.notes, 'edited');
  for (const who of ['outsider', 'anonymous']) {
    assert.equal(out[`${who}_show`].raised, 'NotFound', who);
    assert.equal(out[`${who}_missing`].raised, 'NotFound', who);
  }
  assert.equal(out.after_removal.raised, 'NotFound');
  assert.equal(out.editor_org_patch.raised, 'NotAuthorized');
});

test('package_search by organization with its facet: private datasets for members only', () => {
  const names = (result: Dict) => result.results.map((d: Dict) => d.name).sort();
  assert.deepEqual(names(out.search_member), ['published', 'runs']);
  assert.deepEqual(out.search_member.facets.organization, { lab: 2 });
  assert.deepEqual(names(out.search_anonymous), ['published']);
  assert.deepEqual(out.search_anonymous.facets.organization, { lab: 1 });
});

test('organization_list, organization_list_for_user, member_list and organization_show', () => {
  assert.deepEqual(
    out.list.map((o: Dict) => [o.name, o.package_count]),
    [['lab', 1]],
  );
  assert.deepEqual(
    out.for_editor.map((o: Dict) => [o.name, o.capacity]),
    [['lab', 'editor']],
  );
  assert.deepEqual(out.members.map((m: string[]) => m[2]).sort(), ['admin', 'editor', 'member']);
  assert.deepEqual(
    out.show_anonymous.packages.map((d: Dict) => d.name),
    ['published'],
  );
});

test('the CLI: action calls, and dump then load brings a deleted organization back under its id, owning its dataset', async () => {
  assert.deepEqual(JSON.parse(await cli('action', 'organization_list')), ['lab']);
  const shown = JSON.parse(await cli('action', 'organization_show', 'id=lab')) as Dict;
  assert.equal(shown.id, out.created.id);
  const organizations = await cli('dump', 'organizations', '--all');
  const datasets = await cli('dump', 'datasets', '--all');
  assert.equal(organizations.trim().split('\n').length, 1);
  const deleted = await api(labld.url, 'organization_delete', {
    body: { id: 'lab' },
    headers: { authorization: root.token },
  });
  assert.equal(deleted.status, 200);
  assert.equal(
    (await api(labld.url, 'package_show', { query: { id: 'published' } })).body.result.owner_org,
    null,
  );
  const orgFile = join(labld.dataDir, 'organizations.jsonl');
  const dataFile = join(labld.dataDir, 'datasets.jsonl');
  writeFileSync(orgFile, organizations);
  writeFileSync(dataFile, datasets);
  const loaded = await cli('load', 'organizations', '-I', orgFile);
  assert.doesNotMatch(loaded, /Error|NotFound|NotAuthorized/, loaded);
  await cli('load', 'datasets', '-I', dataFile);
  const back = (await api(labld.url, 'organization_show', { query: { id: 'lab' } })).body.result as Dict;
  assert.deepEqual([back.id, back.title, back.description], [out.created.id, 'The Lab', 'Tensile tests']);
  const owned = (await api(labld.url, 'package_show', { query: { id: 'published' } })).body.result as Dict;
  assert.deepEqual([owned.owner_org, owned.organization?.name], [out.created.id, 'lab']);
});
