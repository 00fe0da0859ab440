// The hostile-input harness (issue 11, "Done when"): labld on the test's transport, a file
// server standing in for the web, and `underAttack`, which runs one hostile request while a
// worker-thread monitor polls /healthz and samples RSS and a second client sends an ordinary
// request — then judges the hostile answer (`assertRefused`, or a test's own check of a complete
// 200) and asserts that labld stayed responsive, stayed under 1 GB and served the other client.
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { Parser, type Quad } from 'n3';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import * as http from '../support/http.ts';
import type { Answer } from '../support/http.ts';
import type { Running } from '../support/labld.ts';
import { startAnnotator } from '../annotator/e2e-support.ts';
import { setEnv } from '../support/env.ts';
import type { MonitorOptions, MonitorReport } from './monitor.ts';
import { healthProblems } from '../support/responsiveness.ts';

/** ... and the whole process (labld's workers are threads in it) stays under this. */
export const RSS_LIMIT_BYTES = 1024 ** 3;
/** How long a hostile request may take before the test gives up on it (gateway budget: 60 s). */
export const ANSWER_TIMEOUT_MS = 90_000;

/** A small, ordinary CSV: what the second client annotates while the hostile request runs. */
export const SEED_CSV = 'Probe,Kraft,Weg\nA1,12.5,0.31\nA2,13.25,0.42\nA3,11.0,0.28\n';

export interface Hostile {
  running: Running;
  /** `<labld>` without a trailing slash */
  base: string;
  files: FileServer;
  /** The seed CSV on the file server, and its descriptor (annotated by labld at start). */
  seedCsvUrl: string;
  seedDescriptorUrl: string;
  stop(): Promise<void>;
}

export type { Answer } from '../support/http.ts';

/**
 * labld allowed to fetch from loopback (where the file server listens), as e2e-support does.
 * The file server closes each connection after its answer, as plain lab file servers do.
 */
/** `env`: settings for this labld only (restored when it stops). */
export async function startHostile(env: Record<string, string> = {}): Promise<Hostile> {
  const files = await startFileServer({ closeAfterBody: true });
  const restore = setEnv(env);
  const labld = await startAnnotator();
  const base = labld.running.url.replace(/\/$/, '');
  const seedCsvUrl = files.put('/seed/probe.csv', SEED_CSV, 'text/csv');
  const descriptor = await postJson(
    `${base}/annotator/api/annotate`,
    JSON.stringify({ data_url: seedCsvUrl }),
  );
  assert.equal(descriptor.status, 200, `the seed annotates: ${descriptor.text.slice(0, 300)}`);
  const seedDescriptorUrl = files.put('/seed/probe-metadata.json', descriptor.text, 'application/ld+json');
  return {
    running: labld.running,
    base,
    files,
    seedCsvUrl,
    seedDescriptorUrl,
    async stop() {
      await labld.stop();
      await files.stop();
      restore();
    },
  };
}

const inTime = () => ({ signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });

/** POST a JSON text (built as text: a deep value would overflow JSON.stringify here too). */
export const postJson = (url: string, text: string): Promise<Answer> => http.postJson(url, text, inTime());
export const getUrl = (url: string): Promise<Answer> => http.get(url, inTime());
export const postFile = (url: string, bytes: Buffer, name: string): Promise<Answer> =>
  http.postFile(url, bytes, name, inTime());

/** `{"k": "v"}` as a JSON object text with `extra` (already JSON text) under `key`. */
export function bodyWith(fields: Record<string, unknown>, key: string, extra: string): string {
  const head = JSON.stringify(fields);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:${extra}}`;
}

/** The /healthz watcher (monitor.ts) on labld at `base`, polling every `periodMs`; ready once its first poll is in. */
export function startMonitor(
  base: string,
  label: string,
  periodMs = 25,
): { worker: Worker; ready: Promise<void> } {
  const options: MonitorOptions = {
    healthz: `${base}/healthz`,
    periodMs,
    frozenMs: 45_000,
    rssKillBytes: 2.5 * 1024 ** 3,
    label,
  };
  const worker = new Worker(new URL('./monitor.ts', import.meta.url), { workerData: options });
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return { worker, ready };
}

export function stopMonitor(worker: Worker): Promise<MonitorReport> {
  return new Promise<MonitorReport>((resolve, reject) => {
    worker.once('message', (report: MonitorReport) => resolve(report));
    worker.once('error', reject);
    worker.postMessage('stop');
  }).finally(() => worker.terminate());
}

/** The ordinary request of a second client: annotate the seed CSV, a descriptor back. */
async function ordinaryRequest(h: Hostile): Promise<string | undefined> {
  try {
    const reply = await postJson(
      `${h.base}/annotator/api/annotate`,
      JSON.stringify({ data_url: h.seedCsvUrl }),
    );
    if (reply.status !== 200) return `answered ${reply.status}: ${reply.text.slice(0, 300)}`;
    const descriptor = JSON.parse(reply.text) as { tables?: { url?: string }[] };
    if (descriptor.tables?.[0]?.url !== h.seedCsvUrl)
      return `no descriptor of the seed: ${reply.text.slice(0, 300)}`;
    return undefined;
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  }
}

/**
 * Runs `attack` (one hostile request) while watching labld, then `judge`s its answer; fails
 * with every broken requirement at once (answer, /healthz, second client, RSS), so that one
 * run tells all that is wrong.
 */
export async function underAttack<T>(
  h: Hostile,
  label: string,
  attack: () => Promise<T>,
  judge: (answer: T) => void,
): Promise<void> {
  const { worker, ready } = startMonitor(h.base, label);
  await ready;
  const hostile = attack();
  // Sent once the hostile request is on its way, so that both are in labld at once.
  const second = new Promise((resolve) => setTimeout(resolve, 50)).then(() => ordinaryRequest(h));
  const [outcome, secondProblem] = await Promise.all([
    hostile.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    second,
  ]);
  const report = await stopMonitor(worker);
  const problems: string[] = [];
  if ('error' in outcome) problems.push(`the request failed: ${String(outcome.error)}`);
  else {
    try {
      judge(outcome.value);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (report.failures.length > 0) {
    problems.push(
      `/healthz failed while the request ran: ${[...new Set(report.failures)].slice(0, 3).join('; ')}`,
    );
  }
  problems.push(...healthProblems(report.latencies));
  if (secondProblem !== undefined) problems.push(`the second client's ordinary request ${secondProblem}`);
  if (report.maxRss >= RSS_LIMIT_BYTES) {
    problems.push(
      `peak RSS ${Math.round(report.maxRss / 2 ** 20)} MiB, over ${RSS_LIMIT_BYTES / 2 ** 20} MiB`,
    );
  }
  assert.deepEqual(problems, [], `${label}:\n  ${problems.join('\n  ')}`);
}

/**
 * A refusal that names the problem: a 4xx (in `statuses` when given) whose JSON `detail`
 * matches every pattern (the limit's words, its variable, the field).
 */
export function assertRefused(label: string, reply: Answer, patterns: RegExp[], statuses?: number[]): string {
  assert.ok(
    reply.status >= 400 && reply.status < 500,
    `${label}: a 4xx, got ${reply.status}: ${reply.text.slice(0, 300)}`,
  );
  if (statuses) {
    assert.ok(
      statuses.includes(reply.status),
      `${label}: status ${reply.status} in ${statuses}: ${reply.text.slice(0, 300)}`,
    );
  }
  const detail = detailOf(label, reply);
  for (const pattern of patterns) {
    assert.match(detail, pattern, `${label}: the detail names ${pattern}: ${detail.slice(0, 300)}`);
  }
  return detail;
}

/** The string `detail` of a JSON error answer (a failure naming `label` when there is none). */
export function detailOf(label: string, reply: Answer): string {
  let detail: unknown;
  try {
    detail = (JSON.parse(reply.text) as { detail?: unknown }).detail;
  } catch {
    assert.fail(`${label}: the ${reply.status} is not JSON: ${reply.text.slice(0, 300)}`);
  }
  assert.equal(typeof detail, 'string', `${label}: a string detail in ${reply.text.slice(0, 300)}`);
  return detail as string;
}

/** Words a depth refusal uses: the limit and its variable. */
export const DEPTH_WORDS = [/deep|depth|nest/i, /\bLABLD_[A-Z0-9_]+\b/];
/** Depth limits are 413 or 422 (issue 11). */
export const LIMIT_STATUSES = [413, 422];

/** Every triple of a Turtle text; a cut or malformed text fails the test naming `label`. */
export function parseTurtle(label: string, text: string): Quad[] {
  try {
    return new Parser({ format: 'text/turtle' }).parse(text);
  } catch (error) {
    assert.fail(`${label}: the graph does not parse completely: ${(error as Error).message}`);
  }
}
