// labld as a child process for the chain benches (bench/chain.ts, bench/scale.ts): `labld start`
// (every gateway and consumer on the embedded bus) in a data directory of its own, and the
// Action API calls they make (upload, the mapping library, polling a resource's steps).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { text as readText } from 'node:stream/consumers';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HARDNESS_MAPPING_TEXT } from '../test/chain/support.ts';
import { cpuSecondsOf, rssOf } from '../test/support/rss.ts';

// ---- labld as a child process ----

/** A labld to call: its address and an API token. */
export interface Target {
  url: string;
  token: string;
}

export interface Child extends Target {
  process: ChildProcess;
  /** Resident set of the process now, and its peak so far, in bytes. */
  rss(): number;
  peakRss(): number;
  /** CPU time of the process so far (every thread, user and system), in milliseconds. */
  cpuMs(): number;
  stop(): Promise<void>;
}

const LABLD = fileURLToPath(new URL('../bin/labld.js', import.meta.url));

/** A process's CPU time so far (every thread), in ms. */
const cpuOf = (pid: number): number => cpuSecondsOf(`/proc/${pid}/stat`) * 1000;

/**
 * `token`: a restart on the same data directory, whose user and token exist already; `extra`:
 * more environment (e.g. LABLD_DATABASE_URL for a labld on PostgreSQL).
 */
export async function startChild(
  dataDir: string,
  token?: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<Child> {
  const env = {
    ...process.env,
    ...extra,
    LABLD_DATA: dataDir,
    LABLD_LOG_LEVEL: 'info',
    LABLD_FETCH_ALLOW: '127.0.0.1',
    // A 1 GiB file is past the default limit by its multipart framing. (Its Turtle, about 22 GB,
    // is within describe's own bound: lib/chain/steps.ts describeLimit.)
    LABLD_UPLOAD_LIMIT: '4gb',
  };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [LABLD, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString('utf8')
      .trim();
  if (token === undefined) cli('user', 'add', 'bench', '--admin');
  token ??= cli('user', 'token', 'bench');
  const child = spawn(process.execPath, [LABLD, 'start', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`labld exited (${code}) before listening`)));
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'labld is listening' && entry.url) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
  });
  const pid = child.pid!;
  return {
    url,
    process: child,
    token,
    rss: () => rssOf(pid, 'VmRSS'),
    peakRss: () => rssOf(pid, 'VmHWM'),
    cpuMs: () => cpuOf(pid),
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---- the Action API ----

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Dict = Record<string, any>;

export async function action(labld: Target, name: string, body: Dict): Promise<Dict> {
  const res = await fetch(`${labld.url}/api/3/action/${name}`, {
    method: 'POST',
    headers: { authorization: labld.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return answerOf(name, res.status, await res.text());
}

function answerOf(name: string, status: number, text: string): Dict {
  const answer = JSON.parse(text) as Dict;
  if (status !== 200) throw new Error(`${name}: ${status} ${JSON.stringify(answer.error)}`);
  return answer.result as Dict;
}

/**
 * A resource upload, the file read as it is sent, through node:http: fetch (undici) held
 * about as much as the file in this client, with a FormData body (1.26 GB peak RSS for a
 * 1 GB upload from `openAsBlob`) and with a streamed one alike (1.16 GB).
 */
export async function upload(labld: Target, dataset: string, file: Blob, name: string): Promise<string> {
  const boundary = `labld-bench-${randomUUID()}`;
  const head =
    `--${boundary}\r\ncontent-disposition: form-data; name="package_id"\r\n\r\n${dataset}\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="upload"; filename=${JSON.stringify(name)}\r\n` +
    'content-type: application/octet-stream\r\n\r\n';
  const request = httpRequest(`${labld.url}/api/3/action/resource_create`, {
    method: 'POST',
    headers: { authorization: labld.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const answered = once(request, 'response') as Promise<[IncomingMessage]>;
  await pipeline(
    (async function* () {
      yield Buffer.from(head);
      yield* file.stream();
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })(),
    request,
  );
  const [response] = await answered;
  return answerOf('resource_create', response.statusCode ?? 0, await readText(response)).id as string;
}

/**
 * The library dataset in the group `mappings` (labld makes the group at first start): a decoy
 * mapping and `seedMapping` (its template URL made local).
 */
export async function library(labld: Target, seedMapping: string): Promise<void> {
  await action(labld, 'package_create', { name: 'mapping-library' });
  await action(labld, 'member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
  await upload(labld, 'mapping-library', new Blob([HARDNESS_MAPPING_TEXT]), 'hardness-map.yaml');
  await upload(labld, 'mapping-library', new Blob([seedMapping]), 'csvw-template-map.yaml');
}

/** Polls the resource's steps until convert is done; a failed step ends the bench. */
export async function joined(
  labld: Target,
  resourceId: string,
  pollMs: number,
  onPoll?: (steps: Dict[]) => void,
): Promise<Dict[]> {
  for (;;) {
    const status = await action(labld, 'labld_status_show', { resource_id: resourceId });
    const steps = (status.resources as Dict[])[0]?.steps as Dict[] | undefined;
    if (steps) onPoll?.(steps);
    const failed = steps?.find((s) => s.state === 'failed');
    if (failed) throw new Error(`${failed.step} failed: ${JSON.stringify(failed.failure)}`);
    if (steps?.find((s) => s.step === 'convert')?.state === 'done') return steps;
    const selected = steps?.find((s) => s.step === 'select-mapping' && s.state === 'done');
    if (selected && !steps?.some((s) => s.step === 'convert')) {
      throw new Error(`no mapping selected: ${selected.summary.note}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
