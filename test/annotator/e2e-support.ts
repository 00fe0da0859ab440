// End-to-end helpers: labld started with startLabld() (embedded, or Kafka in .ci/run), a local
// HTTP server that serves the seed CSVs and any bytes a test puts there (a stand-in for the
// web a data_url points to), and requests that read downloads.
import { readFileSync } from 'node:fs';
import { startFileServer } from '../support/file-server.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { csvtocsvw } from './support.ts';
import { setEnv } from '../support/env.ts';

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
  const restore = setEnv({ LABLD_FETCH_ALLOW: '127.0.0.0/8', BASE_URL: process.env['BASE_URL'] });
  const running = await startLabld();
  process.env['BASE_URL'] = running.url;
  return {
    running,
    annotator: `${running.url.replace(/\/$/, '')}/annotator`,
    async stop() {
      await running.stop();
      restore();
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

export { detailOf, get, postFile, postJson, type Answer } from '../support/http.ts';
