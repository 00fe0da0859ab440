// labld processes for the Kafka scale-out and fault tests: `labld serve <name> --transport
// kafka` started as its own OS process, on the broker of the Kafka suites, in a namespace
// (topic prefix) of its own, with the data directory (blob store) the processes share.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { BROKERS } from './broker.ts';
import { tempDir } from '../support/temp.ts';

const LABLD = new URL('../../bin/labld.js', import.meta.url).pathname;
const START_TIMEOUT_MS = 60_000;

export interface LabldProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** SIGKILL, no goodbye. */
  kill9(): Promise<void>;
  /** SIGTERM: finish in flight, commit, leave the group; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface Deployment {
  prefix: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh namespace on the test broker; `registryUrl` puts payloads in the registry's wire format. */
export function deployment(registryUrl?: string): Deployment {
  const prefix = `deploy-${randomUUID().slice(0, 8)}.`;
  const dataDir = tempDir('labld-deploy-');
  return {
    prefix,
    dataDir,
    env: {
      ...process.env,
      LABLD_TRANSPORT: 'kafka',
      KAFKA_BROKERS: BROKERS.join(','),
      LABLD_KAFKA_TOPIC_PREFIX: prefix,
      LABLD_SCHEMA_REGISTRY_URL: registryUrl ?? '',
      LABLD_DATA: dataDir,
      LABLD_LOG_LEVEL: 'info',
    },
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Start `labld serve <name> --transport kafka --port 0`; resolves when it listens. */
export async function serve(d: Deployment, name: string): Promise<LabldProcess> {
  const child = spawn(process.execPath, [LABLD, 'serve', name, '--transport', 'kafka', '--port', '0'], {
    env: d.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not listen within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      // One JSON log line per event; errors are kept for the failure message.
      let entry: { msg?: string; url?: string; level?: number } = {};
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if ((entry.level ?? 0) >= 50) stderr += `${line}\n`;
      if (entry.msg === 'labld is listening' && entry.url) {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it listened: ${stderr}`));
    });
  });
  return {
    name,
    url,
    child,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      return exited(child);
    },
  };
}

/** The sum of a Prometheus metric's samples whose labels include `labels`. */
export async function metric(
  url: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[4]);
  }
  return sum;
}
