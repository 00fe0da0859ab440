// The embedded triple store: oxigraph in worker threads (slot.ts, worker.ts), graphs as files
// under LABLD_DATA/triplestore (disk.ts). This side streams documents to disk and hands the
// work to a pool of LABLD_SPARQL_WORKERS threads: one writer, which also answers queries, and
// readers started when queries wait, so one dataset's expensive query does not hold another
// dataset's. Threads start with the work that needs them and are let go after
// LABLD_WORKER_IDLE_MS idle, the writer's too (each holds oxigraph's WASM memory, ~30 MB
// empty): an idle store holds none. One dataset's jobs run one at a
// time in their order; after a write the other threads re-read that dataset from disk before
// their next job. The queue is fair across datasets (takeFair).
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { intSetting } from '../../process/config.ts';
import { unreachable } from '../../process/errors.ts';
import type { GraphSource, QueryLimits, QueryOptions, QueryResult, TripleStore } from '../contract.ts';
import { checkDatasetId, checkFormat, checkGraphIri } from '../names.ts';
import { INCOMING_PREFIX, datasetDir, newFileName, writeDocument } from './disk.ts';
import { oxigraphModule } from './oxigraph-module.ts';
import { Slot, type Job } from './slot.ts';
import type { Request, WorkerConfig } from './worker.ts';

const datasetOf = (job: Job) => ('dataset' in job.request ? job.request.dataset : '');
const WRITES = new Set<Request['op']>(['replace', 'drop', 'dropDataset', 'update']);
const writes = (job: Job) => WRITES.has(job.request.op);
/** Answered from the manifests or an empty store: never worth a new thread. */
const light = (job: Job) => job.request.op === 'graphs' || job.request.op === 'ping';

/**
 * Takes the next job a slot may run: the first waiting one of the dataset served longest ago
 * (never: first). One dataset's work keeps its order; another dataset's query waits behind at
 * most one job of each dataset, each bounded by LABLD_SPARQL_TIMEOUT_MS (finding 3).
 */
function takeFair(
  queue: Job[],
  served: Map<string, number>,
  now: number,
  allowed: (job: Job) => boolean,
): Job | undefined {
  let chosen = -1;
  let chosenAt = Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  for (const [i, job] of queue.entries()) {
    const key = datasetOf(job);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!allowed(job)) continue;
    const at = served.get(key) ?? -1;
    if (at < chosenAt) [chosen, chosenAt] = [i, at];
  }
  if (chosen === -1) return undefined;
  const [job] = queue.splice(chosen, 1);
  served.set(datasetOf(job!), now);
  return job;
}

export interface EmbeddedTripleStoreOptions {
  /** LABLD_DATA; the store lives in its `triplestore` folder. */
  dataDir: string;
  limits: QueryLimits;
  /** Triples kept in memory (per thread) before datasets not being queried are let go. */
  memoryTriples: number;
  /** Threads at most, the writer included (LABLD_SPARQL_WORKERS). */
  workers?: number;
  /** How long a thread may stay idle before it is let go (LABLD_WORKER_IDLE_MS). */
  idleMs?: number;
}

class EmbeddedTripleStore implements TripleStore {
  readonly #root: string;
  readonly #limits: QueryLimits;
  readonly #config: Omit<WorkerConfig, 'module'>;
  readonly #memoryMb: number;
  readonly #size: number;
  readonly #idleMs: number;
  readonly #queue: Job[] = [];
  /** When each dataset's work last started (a job count): the fair queue's memory. */
  readonly #served = new Map<string, number>();
  /** The writer first; readers after it. */
  readonly #slots: Slot[] = [];
  #started = 0;
  #closed = false;
  #idle: (() => void) | undefined;
  #reaper: NodeJS.Timeout | undefined;
  /** oxigraph's module, once the first job asked for it; no thread starts before. */
  #module: WebAssembly.Module | undefined;
  #compiling = false;

  constructor(options: EmbeddedTripleStoreOptions) {
    this.#root = join(options.dataDir, 'triplestore');
    this.#limits = options.limits;
    this.#memoryMb = options.limits.memoryMb ?? intSetting('LABLD_SPARQL_MEMORY_MB', {});
    this.#size = Math.max(1, options.workers ?? intSetting('LABLD_SPARQL_WORKERS', {}));
    this.#idleMs = options.idleMs ?? intSetting('LABLD_WORKER_IDLE_MS', {});
    this.#config = {
      root: this.#root,
      memoryTriples: options.memoryTriples,
      maxResults: options.limits.maxResults,
      bounds: options.limits.bounds,
      readOnly: false,
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
    // The writer's slot; its thread starts with the first job.
    this.#slots.push(this.#slot(false));
  }

  #slot(readOnly: boolean): Slot {
    return new Slot({
      config: { ...this.#config, readOnly },
      memoryMb: this.#memoryMb,
      timeoutMs: this.#limits.timeoutMs,
      module: () => this.#module!,
      onFree: (slot, done) => this.#freed(slot, done),
    });
  }

  /** A slot finished `done`: after a write, every other thread re-reads that dataset first. */
  #freed(slot: Slot, done: Job | undefined): void {
    if (done && writes(done)) {
      const dataset = datasetOf(done);
      for (const other of this.#slots) if (other !== slot) other.tell({ op: 'refresh', dataset });
    }
    this.#pump();
  }

  #pump(): void {
    if (this.#module === undefined) return this.#compile();
    while (this.#placeOne());
    if (this.#slots.every((slot) => slot.job === undefined) && this.#queue.length === 0) {
      this.#idle?.();
      this.#reapLater();
    }
  }

  /** Jobs wait for oxigraph's module (compiled once per process); if it cannot be, they fail. */
  #compile(): void {
    if (this.#compiling || this.#queue.length === 0) return;
    this.#compiling = true;
    oxigraphModule().then(
      (module) => {
        this.#compiling = false;
        this.#module = module;
        this.#pump();
      },
      (error: Error) => {
        this.#compiling = false;
        for (const job of this.#queue.splice(0)) {
          job.reject(unreachable(`the embedded triple store cannot start oxigraph: ${error.message}`));
        }
        this.#idle?.();
      },
    );
  }

  /**
   * Gives one waiting job to a slot that may run it; false when none can be placed. A query goes
   * to a free thread that holds its dataset in memory (the writer only while no write waits for
   * it), else to a free reader, else to a new one while the pool may grow, else to the writer:
   * the writer stays free for loads where it can. Without the first rule the first query after
   * a load went to a reader, which read the million triples the writer had just loaded back
   * from disk (3.7–4.4 s for 1M triples).
   */
  #placeOne(): boolean {
    const busy = new Set(this.#slots.flatMap((slot) => (slot.job ? [datasetOf(slot.job)] : [])));
    const take = (allowed: (job: Job) => boolean) =>
      takeFair(this.#queue, this.#served, this.#started, (j) => !busy.has(datasetOf(j)) && allowed(j));
    const [writer, ...readers] = this.#slots;
    const holding = this.#queue.some(writes) ? readers : [...readers, writer!];
    for (const slot of holding) {
      const job = slot.job === undefined ? take((j) => !writes(j) && slot.held.has(datasetOf(j))) : undefined;
      if (job) return this.#start(slot, job);
    }
    for (const reader of readers) {
      const job = reader.job === undefined ? take((j) => !writes(j)) : undefined;
      if (job) return this.#start(reader, job);
    }
    if (this.#slots.length < this.#size && !this.#closed) {
      const job = take((j) => !writes(j) && !light(j));
      if (job) {
        const reader = this.#slot(true);
        this.#slots.push(reader);
        return this.#start(reader, job);
      }
    }
    const job = writer!.job === undefined ? take(() => true) : undefined;
    return job ? this.#start(writer!, job) : false;
  }

  #start(slot: Slot, job: Job): true {
    this.#started++;
    if (job.signal?.aborted) {
      job.reject(job.signal.reason instanceof Error ? job.signal.reason : new Error('aborted'));
    } else {
      slot.run(job);
    }
    return true;
  }

  /**
   * Threads idle for LABLD_WORKER_IDLE_MS are let go, their datasets' copies with them: readers
   * for good, the writer until its next job.
   */
  #reapLater(): void {
    if (this.#reaper || !this.#slots.some((slot) => slot.awake)) return;
    this.#reaper = setTimeout(() => {
      this.#reaper = undefined;
      const now = performance.now();
      const [writer, ...readers] = this.#slots;
      const idle = (slot: Slot) => slot.job === undefined && now - slot.freeSince >= this.#idleMs;
      if (idle(writer!)) void writer!.sleep();
      for (const reader of readers.filter(idle)) {
        this.#slots.splice(this.#slots.indexOf(reader), 1);
        void reader.close();
      }
      this.#reapLater();
    }, this.#idleMs);
    this.#reaper.unref();
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
      await writeDocument(source.body, join(dir, file));
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
    return this.#run(
      { op: 'query', dataset: datasetId, text, ...(options.formats ? { formats: options.formats } : {}) },
      true,
      options.signal,
    );
  }

  async update(datasetId: string, text: string, options: QueryOptions = {}): Promise<void> {
    checkDatasetId(datasetId);
    return this.#run({ op: 'update', dataset: datasetId, text }, true, options.signal);
  }

  /**
   * Runs a query on a running thread, so a store that cannot answer one is not ready (a flag
   * would say it is). With none running there is nothing to ask, and a ping must not start one:
   * /readyz, asked every few seconds, would keep a thread resident.
   */
  async ready(): Promise<void> {
    if (this.#closed) throw unreachable('the triple store is closed');
    if (this.#slots.some((slot) => slot.awake)) await this.#run({ op: 'ping' }, true);
  }

  /** Threads running now (the writer's and readers'). */
  threads(): number {
    return this.#slots.filter((slot) => slot.awake).length;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#reaper);
    if (this.#slots.some((slot) => slot.job !== undefined) || this.#queue.length > 0) {
      await new Promise<void>((resolve) => (this.#idle = resolve));
    }
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }
}

export async function openEmbeddedTripleStore(
  options: EmbeddedTripleStoreOptions,
): Promise<TripleStore & { threads(): number }> {
  const store = new EmbeddedTripleStore(options);
  await store.start();
  return store;
}
