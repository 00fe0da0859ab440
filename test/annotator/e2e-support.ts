// End-to-end helpers: labld started with startLabld() (embedded, or Kafka in .ci/run), a local
// HTTP server that serves the seed CSVs and any bytes a test puts there (a stand-in for the
// web a data_url points to), and requests that read downloads.
import { readFileSync } from 'node:fs';
import { startFileServer } from '../support/file-server.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { csvtocsvw } from './support.ts';

export interface Labld {
  running: Running;
  /** `<labld>/annotator` */
  annotator: string;
  stop(): Promise<void>;
}

/**
 * labld with the guarded fetch allowed to reach loopback (where the test's file server
 * listens). BASE_URL is set to where it really listens, so the stored-file URLs it writes
 * into upload descriptors are reachable by GET.
 */
export async function startAnnotator(): Promise<Labld> {
  const saved = { allow: process.env['LABLD_FETCH_ALLOW'], base: process.env['BASE_URL'] };
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.0/8';
  const running = await startLabld();
  process.env['BASE_URL'] = running.url;
  return {
    running,
    annotator: `${running.url.replace(/\/$/, '')}/annotator`,
    async stop() {
      await running.stop();
      for (const [name, value] of [
        ['LABLD_FETCH_ALLOW', saved.allow],
        ['BASE_URL', saved.base],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

export interface SeedServer {
  /** `http://127.0.0.1:<port>/` */
  base: string;
  /** Serve `bytes` at `<base><name>` (name as it appears in the URL path, decoded). */
  put(name: string, bytes: Buffer | string, contentType?: string): string;
  stop(): Promise<void>;
}

/** Serves the seed CSVs by their file name (`example.csv`, `twocol.csv`, `my%20file.csv`, …). */
export async function startSeedServer(): Promise<SeedServer> {
  const server = await startFileServer({
    fallback(path) {
      for (const seed of [path.slice(1), `probes/${path.slice(1)}`]) {
        try {
          return { body: readFileSync(csvtocsvw(seed)), type: 'text/csv' };
        } catch {
          // not in this folder
        }
      }
      return undefined;
    },
  });
  return {
    base: `${server.origin}/`,
    put: (name, bytes, type = 'text/csv') => server.put(`/${name}`, bytes, type),
    stop: server.stop,
  };
}

export interface Answer {
  status: number;
  contentType: string;
  /** From Content-Disposition. */
  filename: string | undefined;
  text: string;
  bytes: Buffer;
  json(): unknown;
}

async function answer(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1];
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    filename,
    bytes,
    text: bytes.toString('utf8'),
    json: () => JSON.parse(bytes.toString('utf8')) as unknown,
  };
}

export async function postJson(url: string, body: unknown): Promise<Answer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return answer(
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }),
  );
}

export async function postFile(url: string, bytes: Buffer | string, name: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  return answer(await fetch(url, { method: 'POST', body: form }));
}

export async function get(url: string): Promise<Answer> {
  return answer(await fetch(url));
}

/** The detail of a 4xx answer: a `{"detail": "…"}` body whose text names `field`. */
export function detailOf(reply: Answer): string {
  const body = reply.json() as { detail?: unknown };
  if (typeof body.detail !== 'string') throw new Error(`no string detail in ${reply.text.slice(0, 200)}`);
  return body.detail;
}
