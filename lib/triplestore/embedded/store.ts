// The embedded triple store: oxigraph in a worker thread (worker.ts), graphs as files under
// LABLD_DATA/triplestore (disk.ts). This side streams documents to disk, queues the worker's
// work one message at a time and enforces the limits: oxigraph cannot be interrupted, so a
// query past LABLD_SPARQL_TIMEOUT_MS ends the worker, and a fresh one takes over (it reads
// datasets back from disk when they are next queried). So does a worker whose oxigraph trapped
// (a WASM trap leaves it unusable for every later caller), that ended, or whose query grew its
// memory past LABLD_SPARQL_MEMORY_MB: that query is refused with a 413, never retried, and the
// next one runs. The queue is fair across datasets (takeFair).
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { intSetting } from '../../process/config.ts';
import { DomainError, tooLarge, unreachable, upstreamTimeout } from '../../process/errors.ts';
import type { GraphSource, QueryLimits, QueryOptions, QueryResult, TripleStore } from '../contract.ts';
import { checkDatasetId, checkFormat, checkGraphIri } from '../names.ts';
import { INCOMING_PREFIX, datasetDir, newFileName } from './disk.ts';
import type { Reply, Request, WorkerConfig } from './worker.ts';

const ENTRY = new URL('./worker.ts', import.meta.url);
/** How often a running query's memory is looked at: at ~400 MB/s of growth, 20 MB past the limit. */
const MEMORY_SAMPLE_MS = 50;

interface Current {
  id: number;
  job: Job;
  timer: NodeJS.Timeout | undefined;
  watch?: NodeJS.Timeout;
}

/**
 * Takes the next job: the first waiting one of the dataset served longest ago (never: first).
 * One dataset's work keeps its order; another dataset's query waits behind at most one job of
 * each dataset, each bounded by LABLD_SPARQL_TIMEOUT_MS, however many are queued (finding 3).
 */
function takeFair(queue: Job[], served: Map<string, number>, now: number): Job | undefined {
  const datasetOf = (job: Job) => ('dataset' in job.request ? job.request.dataset : '');
  let chosen = -1;
  let chosenAt = Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  for (const [i, job] of queue.entries()) {
    const key = datasetOf(job);
    if (seen.has(key)) continue;
    seen.add(key);
    const at = served.get(key) ?? -1;
    if (at < chosenAt) [chosen, chosenAt] = [i, at];
  }
  if (chosen === -1) return undefined;
  const [job] = queue.splice(chosen, 1);
  served.set(datasetOf(job!), now);
  return job;
}

function settle(current: Current): void {
  clearTimeout(current.timer);
  clearInterval(current.watch);
}

export interface EmbeddedTripleStoreOptions {
  /** LABLD_DATA; the store lives in its `triplestore` folder. */
  dataDir: string;
  limits: QueryLimits;
  /** Triples kept in memory before datasets not being queried are let go. */
  memoryTriples: number;
}

interface Job {
  request: Request;
  timed: boolean;
  signal: AbortSignal | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

class EmbeddedTripleStore implements TripleStore {
  readonly #root: string;
  readonly #limits: QueryLimits;
  readonly #config: WorkerConfig;
  readonly #memoryMb: number;
  readonly #queue: Job[] = [];
  /** When each dataset's work last started (a job id): the fair queue's memory. */
  readonly #served = new Map<string, number>();
  #worker!: Worker;
  #current: Current | undefined;
  #nextId = 1;
  #closed = false;
  #idle: (() => void) | undefined;

  constructor(options: EmbeddedTripleStoreOptions) {
    this.#root = join(options.dataDir, 'triplestore');
    this.#limits = options.limits;
    this.#memoryMb = options.limits.memoryMb ?? intSetting('LABLD_SPARQL_MEMORY_MB', {});
    this.#config = {
      root: this.#root,
      memoryTriples: options.memoryTriples,
      maxResults: options.limits.maxResults,
      bounds: options.limits.bounds,
    };
  }

  async start(): Promise<void> {
    mkdirSync(this.#root, { recursive: true });
    // Documents whose load a crash interrupted: never named by a manifest, so never visible.
    for (const dataset of readdirSync(this.#root)) {
      const dir = join(this.#root, dataset);
      for (const name of existsSync(dir) ? readdirSync(dir) : []) {
        if (name.startsWith(INCOMING_PREFIX)) rmSync(join(dir, name), { force: true });
      }
    }
    this.#spawn();
    await this.#run({ op: 'graphs', dataset: '' }, false);
  }

  #spawn(): void {
    const worker = new Worker(ENTRY, { workerData: this.#config });
    worker.on('message', (reply: Reply) => {
      if (worker !== this.#worker || reply.id === 0) return;
      const current = this.#current;
      if (!current || current.id !== reply.id) return;
      if ('running' in reply) {
        this.#watchMemory(current);
        return;
      }
      if (!reply.ok && reply.fatal) {
        this.#restart(this.#failure(current.job, `oxigraph failed: ${reply.error.message.slice(0, 200)}`));
        return;
      }
      settle(current);
      this.#current = undefined;
      if (reply.ok) current.job.resolve(reply.value);
      else {
        const e = reply.error;
        current.job.reject('kind' in e ? new DomainError(e.kind, e.message, e.field) : new Error(e.message));
      }
      this.#pump();
    });
    const ended = (why: string) => {
      if (worker !== this.#worker || this.#closed) return;
      const current = this.#current;
      this.#restart(
        current ? this.#failure(current.job, why) : unreachable(`the embedded triple store ${why}`),
      );
    };
    worker.on('error', (error) => ended(`failed: ${error.message.slice(0, 200)}`));
    worker.on('exit', (code) => ended(`ended (exit code ${code})`));
    worker.unref();
    this.#worker = worker;
  }

  /**
   * What the caller of a job that broke the worker is told: its query or update was too much
   * for the store (413, not retried: it would break the next worker too); other work, 503.
   */
  #failure(job: Job, why: string): DomainError {
    const { op } = job.request;
    if (op === 'query' || op === 'update') {
      return tooLarge(
        `${op}: the triple store could not run this ${op}: it ${why}; it was restarted for the next one. Simplify the ${op}`,
        op,
      );
    }
    return unreachable(`the embedded triple store ${why}; it was restarted`);
  }

  /**
   * From when oxigraph starts the query (its dataset read in), the worker's memory may grow by
   * LABLD_SPARQL_MEMORY_MB: its WASM memory never shrinks and is outside any heap limit, so a
   * sort of a cartesian product would take gigabytes and keep them. Past it, the worker is
   * replaced. The worker's own figures (V8 counts the WASM memory as external; they are given
   * while it runs), not the process's RSS, which other threads' work would move.
   */
  #watchMemory(current: Current): void {
    const worker = this.#worker;
    const limit = this.#memoryMb * 2 ** 20;
    let start: number | undefined;
    let asking = false;
    const look = () => {
      if (asking) return;
      asking = true;
      worker.getHeapStatistics().then(
        (heap) => {
          asking = false;
          const used = heap.external_memory + heap.used_heap_size;
          start ??= used;
          if (this.#current !== current || used - start <= limit) return;
          this.#restart(
            this.#failure(current.job, `needed more than ${this.#memoryMb} MB (LABLD_SPARQL_MEMORY_MB)`),
          );
        },
        () => (asking = false),
      );
    };
    look();
    current.watch = setInterval(look, MEMORY_SAMPLE_MS);
  }

  /** Ends the worker (a query past its time, or a crash) and starts another. */
  #restart(error: DomainError): void {
    const current = this.#current;
    this.#current = undefined;
    const old = this.#worker;
    this.#spawn();
    void old.terminate();
    if (current) {
      settle(current);
      current.job.reject(error);
    }
    this.#pump();
  }

  #pump(): void {
    if (this.#current) return;
    const job = takeFair(this.#queue, this.#served, this.#nextId);
    if (!job) {
      // Idle, the worker does not keep the process alive (a running job does).
      this.#worker.unref();
      this.#idle?.();
      return;
    }
    if (job.signal?.aborted) {
      job.reject(job.signal.reason instanceof Error ? job.signal.reason : new Error('aborted'));
      this.#pump();
      return;
    }
    const id = this.#nextId++;
    const timer = job.timed
      ? setTimeout(
          () =>
            this.#restart(
              upstreamTimeout(
                `query: did not finish within ${this.#limits.timeoutMs} ms (LABLD_SPARQL_TIMEOUT_MS)`,
                'query',
              ),
            ),
          this.#limits.timeoutMs,
        )
      : undefined;
    this.#current = { id, job, timer };
    this.#worker.ref();
    this.#worker.postMessage({ id, request: job.request });
  }

  #run<T>(request: Request, timed: boolean, signal?: AbortSignal): Promise<T> {
    if (this.#closed) return Promise.reject(unreachable('the triple store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ request, timed, signal, resolve: resolve as (value: unknown) => void, reject });
      this.#pump();
    });
  }

  async replaceGraph(datasetId: string, graph: string, source: GraphSource): Promise<{ triples: number }> {
    checkDatasetId(datasetId);
    checkGraphIri(graph);
    const format = checkFormat(source.format);
    const dir = datasetDir(this.#root, datasetId);
    mkdirSync(dir, { recursive: true });
    const file = newFileName(INCOMING_PREFIX, format);
    try {
      // Synced before the worker may name it: the manifest never points at a partial file.
      await pipeline(Readable.from(source.body), createWriteStream(join(dir, file), { flush: true }));
    } catch (error) {
      rmSync(join(dir, file), { force: true });
      throw error;
    }
    const base = source.baseIri ?? graph;
    return this.#run({ op: 'replace', dataset: datasetId, graph, file, format, base }, false);
  }

  async dropGraph(datasetId: string, graph: string): Promise<boolean> {
    checkDatasetId(datasetId);
    checkGraphIri(graph);
    return this.#run({ op: 'drop', dataset: datasetId, graph }, false);
  }

  async dropDataset(datasetId: string): Promise<void> {
    checkDatasetId(datasetId);
    return this.#run({ op: 'dropDataset', dataset: datasetId }, false);
  }

  async graphs(datasetId: string): Promise<string[]> {
    checkDatasetId(datasetId);
    return this.#run({ op: 'graphs', dataset: datasetId }, false);
  }

  async query(datasetId: string, text: string, options: QueryOptions = {}): Promise<QueryResult> {
    checkDatasetId(datasetId);
    return this.#run({ op: 'query', dataset: datasetId, text }, true, options.signal);
  }

  async update(datasetId: string, text: string, options: QueryOptions = {}): Promise<void> {
    checkDatasetId(datasetId);
    return this.#run({ op: 'update', dataset: datasetId, text }, true, options.signal);
  }

  /** Runs a query, so a store that cannot answer one is not ready (a flag would say it is). */
  async ready(): Promise<void> {
    await this.#run({ op: 'ping' }, true);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#current || this.#queue.length > 0) {
      await new Promise<void>((resolve) => (this.#idle = resolve));
    }
    await this.#worker.terminate();
  }
}

export async function openEmbeddedTripleStore(options: EmbeddedTripleStoreOptions): Promise<TripleStore> {
  const store = new EmbeddedTripleStore(options);
  await store.start();
  return store;
}
