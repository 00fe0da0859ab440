// A whole labld with a catalogue to look at, made the way its users make one: people in the
// store (as `labld user add` makes them), everything else through the Action API with their
// tokens — plate-reader and calorimetry datasets, a plate-reader run uploaded as a CSV with its
// rows in the datastore, a resource a chain step made, and the `mappings` group.
import assert from 'node:assert/strict';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import type { LoginThrottle } from '../../../lib/catalogue/auth/throttle.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { api, importedTable, type Answer } from '../actions/support.ts';

export const PLATE_READER_RUNS = 5;
export const CALORIMETRY_RUNS = 40;
export const RUN_ROWS = 45;
export const OPERATORS = ['ada', 'grace', 'lin'] as const;

export interface SeededLabld extends Running {
  dataDir: string;
  /** API tokens by user name. */
  tokens: Record<string, string>;
  /** The id of plate-run.csv, the uploaded CSV of `plate-reader-01` with its rows in the datastore. */
  runId: string;
}

export interface SeedOptions {
  /** The people who log in (name → password); each gets an API token. `root` is added as sysadmin. */
  users: Record<string, string>;
  loginThrottle?: LoginThrottle;
}

/** Numbers that sort differently as text (9 < 10 < 100); every 7th yield empty. */
export function runRows(): { sample: string; temperature: number; yield: number | null; operator: string }[] {
  return Array.from({ length: RUN_ROWS }, (_, index) => {
    const i = index + 1;
    return {
      sample: `S-${String(i).padStart(3, '0')}`,
      temperature: (i * 37) % 101,
      yield: i % 7 === 0 ? null : Math.round((i * 13) % 50) * 1.5,
      operator: OPERATORS[i % 3]!,
    };
  });
}

export function runCsv(): string {
  const lines = runRows().map((r) => [r.sample, r.temperature, r.yield ?? '', r.operator].join(','));
  return `sample,temperature,yield,operator\n${lines.join('\n')}\n`;
}

function ok(answer: Answer, what: string): Answer {
  assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** The datasets' names and titles in the order they are made (the list shows the newest first). */
export function seededDatasets(): { name: string; title: string }[] {
  const plate = Array.from({ length: PLATE_READER_RUNS }, (_, i) => ({
    name: `plate-reader-${String(i + 1).padStart(2, '0')}`,
    title: `Plate reader run ${i + 1}`,
  }));
  const calorimetry = Array.from({ length: CALORIMETRY_RUNS }, (_, i) => ({
    name: `calorimetry-${String(i + 1).padStart(2, '0')}`,
    title: `Calorimetry run ${i + 1}`,
  }));
  return [...plate, ...calorimetry];
}

export async function startSeededLabld(options: SeedOptions): Promise<SeededLabld> {
  const labld = await startLabld({ loginThrottle: options.loginThrottle });
  try {
    const tokens: Record<string, string> = {};
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    try {
      const people = { root: 'root has a long password', ...options.users };
      for (const [name, password] of Object.entries(people)) {
        const user = await store.createUser({
          name,
          password_hash: await hashPassword(password),
          sysadmin: name === 'root',
        });
        const made = createToken();
        await store.createToken({ user_id: user.id, name: 'seed', token_hash: made.hash });
        tokens[name] = made.token;
      }
    } finally {
      await store.close();
    }
    // Datasets are ada's when she is one of the people, so that she may upload to them.
    const owner = { authorization: tokens['ada'] ?? tokens['root']! };
    // The `mappings` group is made by labld's first start.
    for (const { name, title } of seededDatasets()) {
      const body = { name, title, notes: `Measurements of the ${title.toLowerCase()}.` };
      ok(await api(labld.url, 'package_create', { body, headers: owner }), `package_create ${name}`);
    }
    const form = new FormData();
    form.set('package_id', 'plate-reader-01');
    form.set('upload', new Blob([runCsv()], { type: 'text/csv' }), 'plate-run.csv');
    const run = ok(await api(labld.url, 'resource_create', { form, headers: owner }), 'resource_create');
    const runId = run.body.result.id as string;
    // The automation chain's import step fills the table after the upload (typed by the descriptor).
    await importedTable(labld.url, runId);
    return { ...labld, tokens, runId };
  } catch (error) {
    await labld.stop();
    throw error;
  }
}
