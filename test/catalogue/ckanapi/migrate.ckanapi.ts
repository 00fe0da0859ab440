// A catalogue moved from one labld to another with the ckanapi CLI, as a CKAN site is moved:
// `ckanapi dump datasets --all` from the first, `ckanapi load datasets --upload-resources`
// into the second. The datasets, their ids, their resources' ids and the files' bytes must come
// out identical (the load's package_create keeps the dump's ids, and its resource_patch puts
// each file on the resource it made). The second labld is a child process: a labld's download
// URLs come from its BASE_URL, which is one per process. .ci/run sets LABLD_CKANAPI_PYTHON;
// unset, this fails.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { removeTempDir, tempDir } from '../../support/temp.ts';
import { sleep } from '../../support/wait.ts';
import { api, person, type Person } from '../actions/support.ts';
import { runClient } from '../../support/python.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const python = process.env.LABLD_CKANAPI_PYTHON ?? '';

let source: Running & { dataDir: string };
let target: { url: string; dataDir: string; child: ChildProcess };
let sourceAdmin: Person;
let targetAdmin: Person;
let loadLog: string;
/** The bytes uploaded to the source, by file name. */
const files = new Map<string, Buffer>([
  // Not CSV: the chain would derive resources from a CSV on each site by itself.
  ['specimen.bin', randomBytes(70_000)],
  ['settings.json', Buffer.from('{"speed": "2 mm/min", "grip": "wedge"}\n')],
  ['empty.dat', Buffer.alloc(0)],
]);

async function sysadmin(dataDir: string): Promise<Person> {
  const store = await openCatalogueStore({ dataDir });
  try {
    return await person(store, 'migrator', true);
  } finally {
    await store.close();
  }
}

async function call(base: string, who: Person, action: string, body: Dict): Promise<Dict> {
  const answer = await api(base, action, { body, headers: { authorization: who.token } });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

async function uploadTo(datasetId: string, name: string, description: string): Promise<void> {
  const form = new FormData();
  form.set('package_id', datasetId);
  form.set('description', description);
  form.set('upload', new Blob([files.get(name)!]), name);
  const made = await api(source.url, 'resource_create', {
    form,
    headers: { authorization: sourceAdmin.token },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body.error));
}

/** `labld start` in a child process on its own data directory, once it answers /readyz. */
async function startChild(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const { BASE_URL: _ours, ...env } = process.env;
  const bin = new URL('../../../bin/labld.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'start', '--port', String(port)], {
    // No starter mapping library: the target must hold exactly the datasets moved into it.
    env: { ...env, LABLD_DATA: dataDir, LABLD_LOG_LEVEL: 'error', LABLD_STARTER_MAPPINGS: 'false' },
    stdio: 'ignore',
  });
  const url = `http://localhost:${port}`;
  // Start-up on a loaded machine can take a while.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`labld start exited ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child };
    await sleep(200);
  }
  child.kill('SIGTERM');
  throw new Error('labld start did not get ready in 120 s');
}

/** Runs the ckanapi CLI of the venv (its workers are `ckanapi` processes found on PATH). */
function ckanapi(args: string[]): Promise<string> {
  const bin = dirname(python);
  return runClient(join(bin, 'ckanapi'), args, {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    what: `ckanapi ${args.slice(0, 2).join(' ')}`,
  });
}

before(async () => {
  if (!python)
    throw new Error('LABLD_CKANAPI_PYTHON is not set: a python with ckanapi installed (see .ci/run)');
  source = await startLabld();
  sourceAdmin = await sysadmin(source.dataDir);
  const targetDir = tempDir('labld-e2e-');
  targetAdmin = await sysadmin(targetDir);
  target = { dataDir: targetDir, ...(await startChild(targetDir)) };
  const tensile = await call(source.url, sourceAdmin, 'package_create', {
    name: 'tensile-tests',
    title: 'Tensile tests',
    notes: 'Steel specimens, **2026**',
    author: 'Ada Lovelace',
    author_email: 'ada@lab.test',
    version: '2',
    license_id: 'cc-by',
    tags: [{ name: 'steel' }, { name: 'tensile test' }],
    extras: [{ key: 'machine', value: 'Zwick Z100' }],
  });
  await uploadTo(tensile.id, 'specimen.bin', 'raw machine file');
  await uploadTo(tensile.id, 'settings.json', '');
  await call(source.url, sourceAdmin, 'resource_create', {
    package_id: tensile.id,
    name: 'Standard',
    url: 'https://example.org/iso-6892.pdf',
    format: 'PDF',
  });
  const hardness = await call(source.url, sourceAdmin, 'package_create', {
    name: 'hardness',
    title: 'Hardness',
  });
  await uploadTo(hardness.id, 'empty.dat', 'nothing measured');

  const dump = join(source.dataDir, 'datasets.jsonl');
  await ckanapi(['dump', 'datasets', '--all', '-r', source.url, '-a', sourceAdmin.token, '-O', dump]);
  const log = join(source.dataDir, 'load.jsonl');
  await ckanapi([
    'load',
    'datasets',
    '--upload-resources',
    '-I',
    dump,
    '--log',
    log,
    '-r',
    target.url,
    '-a',
    targetAdmin.token,
  ]);
  loadLog = readFileSync(log, 'utf8');
});

after(async () => {
  await source?.stop();
  if (target) {
    const exited = new Promise((resolve) => target.child.once('exit', resolve));
    target.child.kill('SIGTERM');
    await exited;
    removeTempDir(target.dataDir);
  }
});

test('the load reports every dataset created, none refused', () => {
  const replies = loadLog
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as [string, unknown, string, unknown, unknown]);
  assert.deepEqual(
    replies.map(([, , action, error, name]) => [action, error, name]).sort(),
    [
      ['create', null, 'hardness'],
      ['create', null, 'tensile-tests'],
    ],
    loadLog,
  );
});

const DATASET_KEYS = [
  ...['id', 'name', 'title', 'notes', 'private', 'num_resources', 'author', 'author_email', 'version'],
  ...['license_id', 'tags', 'extras'],
] as const;
const RESOURCE_KEYS = ['id', 'name', 'description', 'format', 'url_type', 'size', 'position'] as const;

for (const name of ['tensile-tests', 'hardness']) {
  test(`${name}: the same dataset, ids and resources on both sites`, async () => {
    const before = await call(source.url, sourceAdmin, 'package_show', { id: name });
    const moved = await call(target.url, targetAdmin, 'package_show', { id: name });
    for (const key of DATASET_KEYS) assert.deepEqual(moved[key], before[key], key);
    if (name === 'tensile-tests') assert.equal(moved.tags.length, 2);
    assert.equal(moved.resources.length, before.resources.length);
    for (const [i, resource] of (before.resources as Dict[]).entries()) {
      for (const key of RESOURCE_KEYS)
        assert.deepEqual(moved.resources[i][key], resource[key], `${i}: ${key}`);
    }
  });
}

test('every uploaded file is on the second site, byte for byte, under its resource id', async () => {
  const seen: string[] = [];
  for (const name of ['tensile-tests', 'hardness']) {
    const before = await call(source.url, sourceAdmin, 'package_show', { id: name });
    const moved = await call(target.url, targetAdmin, 'package_show', { id: name });
    for (const resource of moved.resources as Dict[]) {
      if (resource.url_type !== 'upload') continue;
      assert.ok(resource.url.startsWith(`${target.url}/dataset/${moved.id}/resource/${resource.id}/`));
      assert.ok((before.resources as Dict[]).some((r) => r.id === resource.id));
      const download = await fetch(resource.url, { headers: { authorization: targetAdmin.token } });
      assert.equal(download.status, 200);
      const bytes = Buffer.from(await download.arrayBuffer());
      assert.ok(bytes.equals(files.get(resource.name)!), resource.name);
      seen.push(resource.name as string);
    }
  }
  assert.deepEqual(seen.sort(), [...files.keys()].sort());
});

test('the link stays a link to the same URL', async () => {
  const moved = await call(target.url, targetAdmin, 'package_show', { id: 'tensile-tests' });
  const link = (moved.resources as Dict[]).find((r) => r.name === 'Standard')!;
  assert.equal(link.url, 'https://example.org/iso-6892.pdf');
  assert.equal(link.url_type, '');
});

test('the second site holds the dumped datasets and no others', async () => {
  const dump = readFileSync(join(source.dataDir, 'datasets.jsonl'), 'utf8');
  assert.equal(dump.trim().split('\n').length, 2);
  const listed = await call(target.url, targetAdmin, 'package_list', {});
  assert.deepEqual([...(listed as unknown as string[])].sort(), ['hardness', 'tensile-tests']);
});
