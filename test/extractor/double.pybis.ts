// The openBIS test double as openBIS's own Python client sees it: PyPI pybis logs in and reads
// spaces, projects, collections, objects with properties, types with property assignments,
// persons, property types, data sets, their files and a file's bytes
// (test/extractor/pybis_against_double.py).
// If the double answered a call unlike openBIS, pybis would fail on it. .ci/run makes the venv
// and points LABLD_PYBIS_PYTHON at its python; unset, this fails rather than skips.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';
import { runClient } from '../support/python.ts';

const python = process.env.LABLD_PYBIS_PYTHON ?? '';
const script = new URL('./pybis_against_double.py', import.meta.url).pathname;
const DATASET = '20240904142300681-40';
const FILE = 'original/markdown_demo.md';

interface Step {
  step: string;
  ok: boolean;
  detail: unknown;
}

describe('pybis against the openBIS test double', () => {
  let double: OpenbisDouble;
  let home: string;
  const steps = new Map<string, Step>();
  const passed = (name: string): Step => {
    const step = steps.get(name);
    assert.ok(step, `pybis never reached step ${name}`);
    assert.ok(step.ok, `${name}: ${String(step.detail)}`);
    return step;
  };

  before(async () => {
    if (!python)
      throw new Error('LABLD_PYBIS_PYTHON is not set: a python with pybis installed (see .ci/run)');
    double = await startOpenbisDouble();
    home = mkdtempSync(join(tmpdir(), 'labld-pybis-'));
    // pybis keeps tokens under ~/.pybis: a HOME of its own leaves nothing behind.
    const stdout = await runClient(python, [script, double.origin, join(home, 'downloads')], {
      env: { ...process.env, HOME: home },
      what: 'pybis script',
    });
    // pybis prints a refused request on stdout too; the script's own lines start so.
    for (const line of stdout.split('\n').filter((l) => l.startsWith('{"step"'))) {
      const step = JSON.parse(line) as Step;
      steps.set(step.step, step);
    }
  });
  after(async () => {
    await double?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('logs in with a session token and out again', () => {
    assert.equal(passed('login').detail, 'admin');
    passed('logout');
    assert.equal(double.sessions.size, 0, 'the session ended');
  });

  it('reads spaces, projects and collections, searched by space and got by identifier', () => {
    assert.deepEqual(passed('spaces').detail, ['EMODUL']);
    assert.deepEqual(passed('projects').detail, ['/EMODUL/LEBEDIGITAL']);
    assert.ok(
      (passed('collections').detail as string[]).includes(
        '/EMODUL/LEBEDIGITAL/LEBEDIGITAL_INGREDIENT_COLLECTION',
      ),
    );
  });

  it('searches objects by space and type, and gets one with its properties and collection', () => {
    assert.deepEqual(passed('objects').detail, {
      name: 'admixture',
      experiment: '/EMODUL/LEBEDIGITAL/LEBEDIGITAL_INGREDIENT_COLLECTION',
    });
  });

  it('lists object, collection and data set types, and an object type with its property assignments', () => {
    assert.ok((passed('object types').detail as string[]).includes('emodul_ingredient.bulkdensity'));
    assert.ok((passed('collection types').detail as string[]).length > 0);
    assert.ok((passed('data set types').detail as string[]).includes('ATTACHMENT'));
  });

  it('lists persons and gets one', () => {
    assert.ok((passed('persons').detail as string[]).includes('admin'));
    assert.equal(passed('person').detail, 'admin');
  });

  it('lists property types and gets one; reads the server information', () => {
    assert.equal(passed('property types').detail, 'REAL');
    assert.equal(passed('server information').detail, 3);
  });

  it('searches data sets by space, lists their files from the data store and downloads one byte for byte', () => {
    assert.deepEqual(passed('data sets').detail, [DATASET]);
    assert.ok((passed('file list').detail as string[]).includes(FILE));
    const path = passed('file download').detail as string;
    const served = double.data.files.get(DATASET)?.find((f) => f.path === FILE);
    assert.ok(served);
    assert.deepEqual(readFileSync(path), served.bytes);
  });

  it('every step of the script ran', () => {
    assert.equal(steps.size, 16, [...steps.keys()].join(', '));
  });
});
