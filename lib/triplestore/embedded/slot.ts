// One worker thread of the embedded triple store and the job it runs. The thread starts with
// the slot's first job and may be let go while idle (sleep): its oxigraph WASM memory and heap
// go with it, and the next job starts a fresh one that reads what it needs back from disk.
// oxigraph cannot be
// interrupted, so a query past LABLD_SPARQL_TIMEOUT_MS ends the worker and a fresh one takes
// its place (it reads datasets back from disk when they are next queried). So does a worker
// whose oxigraph trapped (a WASM trap leaves it unusable for every later caller), that ended,
// or whose query grew its memory past LABLD_SPARQL_MEMORY_MB: that job is refused (413, never
// retried) and the slot is free for the next one.
import { Worker } from 'node:worker_threads';
import { DomainError, tooLarge, unreachable, upstreamTimeout } from '../../process/errors.ts';
import type { Reply, Request, WorkerConfig } from './worker.ts';
import { count } from '../../process/counters.ts';

const ENTRY = new URL('./thread.ts', import.meta.url);
/** How often a running query's memory is looked at: at ~400 MB/s of growth, 20 MB past the limit. */
const MEMORY_SAMPLE_MS = 50;
/** Operations whose worker says when oxigraph starts them (their dataset read in). */
const REPORTS_RUNNING = new Set<Request['op']>(['query', 'update']);

export interface Job {
  request: Request;
  timed: boolean;
  signal: AbortSignal | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface SlotOptions {
  config: Omit<WorkerConfig, 'module'>;
  /** oxigraph's compiled module, given to each thread the slot starts (oxigraph-module.ts). */
  module: () => WebAssembly.Module;
  memoryMb: number;
  timeoutMs: number;
  /** The slot's job (if any) settled (answered, refused or its worker replaced): give it the next. */
  onFree: (slot: Slot, done: Job | undefined) => void;
}

interface Current {
  id: number;
  job: Job;
  timer: NodeJS.Timeout | undefined;
  watch?: NodeJS.Timeout;
}

export class Slot {
  /** When the slot last finished a job: idle readers are let go. */
  freeSince = performance.now();
  /**
   * The datasets its thread holds in memory, as the thread said after its last message: a query
   * sent there is answered without reading its dataset back from disk (seconds for 1M triples).
   */
  held: ReadonlySet<string> = new Set();
  readonly #options: SlotOptions;
  /** The thread, while the slot is awake. */
  #worker: Worker | undefined;
  #current: Current | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: SlotOptions) {
    this.#options = options;
  }

  /** Whether the slot has a thread now (it starts one for its next job). */
  get awake(): boolean {
    return this.#worker !== undefined;
  }

  get writer(): boolean {
    return !this.#options.config.readOnly;
  }

  get job(): Job | undefined {
    return this.#current?.job;
  }

  /**
   * Starts a job; the slot must be free. A query's or update's time counts from when oxigraph
   * starts it (the worker says `running`): reading its dataset back from disk after another
   * thread wrote it takes seconds for a million triples, and a worker ended for that would
   * throw the copy away and make the next query read it again.
   */
  run(job: Job): void {
    const id = this.#nextId++;
    const timer = job.timed && !REPORTS_RUNNING.has(job.request.op) ? this.#timeout() : undefined;
    this.#current = { id, job, timer };
    const worker = this.#worker ?? this.#spawn();
    worker.ref();
    worker.postMessage({ id, request: job.request });
    count('handoff.triplestore');
  }

  /**
   * A message whose reply nobody waits for (id 0): it is handled before any later job. A slot
   * asleep has nothing to tell: its next thread reads the store from disk.
   */
  tell(request: Request): void {
    if (request.op === 'refresh') this.held = new Set([...this.held].filter((d) => d !== request.dataset));
    this.#worker?.postMessage({ id: 0, request });
  }

  /** Ends the thread of an idle slot, which stays usable: its next job starts a fresh one. */
  async sleep(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#current) return;
    this.#worker = undefined;
    this.held = new Set();
    await worker.terminate();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #spawn(): Worker {
    const worker = new Worker(ENTRY, {
      workerData: { ...this.#options.config, module: this.#options.module() } satisfies WorkerConfig,
    });
    this.held = new Set();
    worker.on('message', (reply: Reply) => {
      if (worker !== this.#worker) return;
      if (reply.held) this.held = new Set(reply.held);
      if (reply.id === 0) return;
      const current = this.#current;
      if (!current || current.id !== reply.id) return;
      if ('running' in reply) {
        if (current.job.timed) current.timer ??= this.#timeout();
        this.#watchMemory(current);
        return;
      }
      if (!reply.ok && reply.fatal) {
        this.#restart(this.#failure(current.job, `oxigraph failed: ${reply.error.message.slice(0, 200)}`));
        return;
      }
      this.#settle();
      if (reply.ok) current.job.resolve(reply.value);
      else {
        const e = reply.error;
        current.job.reject('kind' in e ? new DomainError(e.kind, e.message, e.field) : new Error(e.message));
      }
      this.#options.onFree(this, current.job);
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
    // Idle, the worker does not keep the process alive (a running job does).
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #timeout(): NodeJS.Timeout {
    return setTimeout(
      () =>
        this.#restart(
          upstreamTimeout(
            `query: did not finish within ${this.#options.timeoutMs} ms (LABLD_SPARQL_TIMEOUT_MS)`,
            'query',
          ),
        ),
      this.#options.timeoutMs,
    );
  }

  #settle(): void {
    const current = this.#current;
    if (!current) return;
    clearTimeout(current.timer);
    clearInterval(current.watch);
    this.#current = undefined;
    this.freeSince = performance.now();
    this.#worker?.unref();
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
    const worker = this.#worker!;
    const { memoryMb } = this.#options;
    const limit = memoryMb * 2 ** 20;
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
            this.#failure(current.job, `needed more than ${memoryMb} MB (LABLD_SPARQL_MEMORY_MB)`),
          );
        },
        () => (asking = false),
      );
    };
    look();
    current.watch = setInterval(look, MEMORY_SAMPLE_MS);
  }

  /** Ends the worker (a query past its time, or a crash) and starts another in its place. */
  #restart(error: DomainError): void {
    const current = this.#current;
    this.#settle();
    const old = this.#worker;
    this.#spawn();
    void old?.terminate();
    current?.job.reject(error);
    this.#options.onFree(this, current?.job);
  }
}
