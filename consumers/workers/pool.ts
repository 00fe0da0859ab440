// The worker pool of a process: request operations run in worker threads, so a request that
// parses for minutes or allocates without end never stalls the gateways, /healthz or other
// requests on the main thread. One request per worker at a time; more wait in a queue. A
// request is ended (deadline passed, subscription closed) by terminating its worker — which
// stops even a synchronous loop and frees its heap — and a fresh worker takes its place, as
// it does for a worker that ran out of memory or died.
//
// Memory: V8's own worker heap limit is best effort — one large allocation near it (a Map or
// an array growing its backing store) aborts the whole process instead of the worker
// (nodejs/node#47224; an ordinary 30,000-row /api/rdf did so at 256 MB). So the pool watches
// the heap in use (live and not yet collected) of each busy worker and terminates it past
// LABLD_WORKER_MEMORY_MB itself; V8's limit is three times that, room for one large allocation
// between two looks (every 25 ms). A worker collects its garbage before it takes a request when
// the last one left much (worker.ts), so what is counted is the request's own, not what the one
// before it left.
//
// Workers start on demand: LABLD_WORKERS_WARM (default none) are kept loaded with every group's
// operations; otherwise a request starts a worker, which loads only the module of that request's
// group (about 30 MB of heap each). While every worker is busy a spare is started, and one more
// for each waiting request, up to LABLD_WORKERS; one beyond the warm ones idle for
// LABLD_WORKER_IDLE_MS is closed — an idle process holds no worker's memory, not one per core.
//
// Requests go before background work (the chain's steps) beyond its first running job, and it
// may hold all workers but one (job-queue.ts): uploads' chain work does not starve the pages.
//
// A worker that dies under a request (an uncaught throw from a library's event handler, say)
// may have died of something else, so the request runs once more on a fresh worker; if that
// one dies too, the input sets it off every time and the request fails as `crashed`, which
// nobody retries.
import { availableParallelism } from 'node:os';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { Credential } from '../../lib/catalogue/auth/actor.ts';
import { intSetting, setting } from '../../lib/process/config.ts';
import { log } from '../../lib/process/log.ts';
import { workerQueue, workerStopped, workerWait } from '../../lib/process/metrics.ts';
import type { DocumentCache } from '../../lib/shared/contract.ts';
import { MemoryDocumentCache } from '../../lib/shared/memory.ts';
import { sharedConfigFromEnv } from '../../lib/shared/open.ts';
import { youngGenerationMb } from '../../lib/process/heap.ts';
import { answerCacheCall } from './document-cache.ts';
import { backgroundRoom, JobQueue } from './job-queue.ts';
import { abortError, crashedOn, outOfMemory, overDeadline, pastDeadline } from './pool-errors.ts';
import {
  fromWire,
  toWire,
  type CloseWorker,
  type FromWorker,
  type OperationsSource,
  type RunJob,
  type WorkerData,
} from './protocol.ts';
import { count } from '../../lib/process/counters.ts';

const ENTRY = new URL('./worker.ts', import.meta.url);
/** Pause before replacing a worker that died before it was ready (a broken module would loop). */
const RESPAWN_PAUSE_MS = 1000;
/**
 * How often the heap of a busy worker is looked at (the worker answers even in a synchronous
 * loop). At 100 ms a Map growing at a few hundred MB/s crossed V8's limit between two looks on a
 * loaded machine, aborting the process; a look costs one message.
 */
const HEAP_WATCH_MS = 25;
/**
 * V8's own heap limit of a worker, relative to the limit the pool enforces: room for the heap
 * watch to look before a backing store's doubling crosses it (measured: 1.5 still aborts; at 2 a
 * Map's store went 83 → 143 MB past a 128 MB limit before the watch looked, once, in CI under load).
 */
const HARD_LIMIT_FACTOR = 3;
/** How long an idle worker may take to close its stores when the pool stops. */
const CLOSE_GRACE_MS = 2000;
/**
 * A worker collects a job's garbage before the next job when the job left more than this part of
 * LABLD_WORKER_MEMORY_MB (worker.ts): what the heap watch may count of the last job's garbage.
 */
const COLLECT_ABOVE_PART = 1 / 16;
/** Workers a request may see die under it before it is answered `crashed`. */
const CRASHES_PER_JOB = 2;

export interface PoolOptions {
  /** The consumer groups whose operations every worker loads. */
  sources: OperationsSource[];
  /** The data directory the workers open the blob store in. */
  dataDir: string;
  /** Workers at most (default LABLD_WORKERS, else max(2, available CPUs)). */
  size?: number;
  /** Workers kept loaded while idle (default LABLD_WORKERS_WARM, at most `size`). */
  warm?: number;
  /** How long a worker beyond the warm ones may stay idle before it is closed (default LABLD_WORKER_IDLE_MS). */
  idleMs?: number;
  /** Semi-space of each worker in MB, 0 for V8's own (default LABLD_SEMI_SPACE_MB, lib/process/heap.ts). */
  semiSpaceMb?: number;
  /** Old-generation heap per worker in MB (default LABLD_WORKER_MEMORY_MB). */
  memoryMb?: number;
  /**
   * The process's in-process document cache, which the workers share through their ports
   * (default a fresh one; unused when LABLD_REDIS_URL makes the workers use Redis).
   */
  documents?: DocumentCache;
}

export interface RunOptions {
  correlationId?: string | undefined;
  /** The request's id on the bus (OperationContext.requestId). */
  requestId?: string | undefined;
  /** Whose rights the operation reads this catalogue's resources with (OperationContext.credential). */
  credential?: Credential | undefined;
  /** Milliseconds since the epoch; the request is abandoned then, running or waiting. */
  deadline?: number | undefined;
  /** Aborting it abandons the request (a subscription closing). */
  signal?: AbortSignal | undefined;
  /** Work nobody waits for (a chain step): after every waiting request, never on the last free worker. */
  background?: boolean;
}

/** Workers per process: LABLD_WORKERS, else one per CPU and at least two. */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  if (setting('LABLD_WORKERS', env) === '') return Math.max(2, availableParallelism());
  const count = intSetting('LABLD_WORKERS', env);
  if (count < 1) throw new Error('LABLD_WORKERS must be at least 1');
  return count;
}

interface Job {
  message: RunJob;
  background: boolean;
  /** performance.now() when it was queued: its wait is measured (labld_worker_wait_seconds). */
  queued: number;
  /** Workers that died under it so far. */
  crashes: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Clears the deadline timer and the signal listener. */
  release(): void;
}

interface Slot {
  worker: Worker;
  /** A warm worker: loads every group's operations before it is ready. */
  preload: boolean;
  ready: boolean;
  job: Job | undefined;
  /** Watches the heap while a job runs. */
  watch: NodeJS.Timeout | undefined;
  /** Between a job's answer and the worker's `idle`: it is collecting that job's garbage. */
  collecting: boolean;
  /** Closes this worker when it stays idle (only a worker beyond the warm ones). */
  retire: NodeJS.Timeout | undefined;
  /** Why the worker ended, when the pool ended it or V8 did (out of memory). */
  ending: Error | undefined;
}

export class WorkerPool {
  readonly size: number;
  readonly warm: number;
  readonly idleMs: number;
  readonly memoryMb: number;
  readonly #data: WorkerData;
  /** Young generation per worker in MB; undefined: V8's own. */
  readonly #youngMb: number | undefined;
  readonly #documents: DocumentCache;
  readonly #slots = new Set<Slot>();
  readonly #queue = new JobQueue<Job>();
  readonly #exits = new Set<Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #nextId = 1;
  #closed = false;
  #started = false;
  #starting: { resolve(): void; reject(error: Error): void; waiting: number } | undefined;

  constructor(options: PoolOptions) {
    this.size = options.size ?? workerCount();
    this.warm = Math.min(this.size, options.warm ?? intSetting('LABLD_WORKERS_WARM'));
    this.idleMs = options.idleMs ?? intSetting('LABLD_WORKER_IDLE_MS');
    if (this.warm < 0) throw new Error(`LABLD_WORKERS_WARM must be at least 0, got ${this.warm}`);
    this.memoryMb = options.memoryMb ?? intSetting('LABLD_WORKER_MEMORY_MB');
    // Below this a worker cannot even load the operations.
    if (this.memoryMb < 32)
      throw new Error(`LABLD_WORKER_MEMORY_MB must be at least 32, got ${this.memoryMb}`);
    this.#youngMb = youngGenerationMb(options.semiSpaceMb);
    this.#data = {
      sources: options.sources,
      dataDir: options.dataDir,
      preload: false,
      collectAbove: Math.round(this.memoryMb * COLLECT_ABOVE_PART * 1024 * 1024),
    };
    this.#documents = options.documents ?? new MemoryDocumentCache(sharedConfigFromEnv().limits);
  }

  /** Start the warm workers; resolves when they have loaded their operations. */
  start(): Promise<void> {
    if (this.warm === 0) {
      this.#started = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.#starting = { resolve, reject, waiting: this.warm };
      for (let i = 0; i < this.warm; i += 1) this.#spawn(true);
    });
  }

  /**
   * Ready while a worker has loaded its operations or one may be started (for /readyz): a pool
   * without warm workers is ready once started.
   */
  ready(): boolean {
    if (this.#closed) return false;
    if (this.warm === 0) return this.#started;
    return [...this.#slots].some((slot) => slot.ready && !slot.ending);
  }

  /** Workers running now (loaded or loading). */
  workers(): number {
    return this.#slots.size;
  }

  /** Run `operation` of `group` in a worker; its result, or its error as the bus knows it. */
  run(group: string, operation: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('the worker pool is stopped'));
    const { deadline, signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (deadline !== undefined && deadline <= Date.now()) return Promise.reject(pastDeadline());
    return new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => this.#abandon(job, abortError(signal!), 'abandoned');
      const job: Job = {
        message: {
          type: 'run',
          id: this.#nextId++,
          group,
          operation,
          input,
          correlationId: options.correlationId,
          requestId: options.requestId,
          credential: options.credential,
        },
        background: options.background === true,
        queued: performance.now(),
        crashes: 0,
        resolve,
        reject,
        release: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      if (deadline !== undefined) {
        // Timers hold at most 2^31-1 ms; a deadline further out is as good as none.
        timer = setTimeout(
          () => this.#abandon(job, overDeadline(), 'deadline'),
          Math.min(deadline - Date.now(), 2 ** 31 - 1),
        );
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      workerQueue.set(this.#queue.length);
      this.#dispatch();
    });
  }

  /** Terminate every worker; waiting and running requests fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const stopped = new Error('the worker pool was stopped');
    for (const job of this.#queue.drain()) this.#settle(job, stopped);
    this.#starting?.reject(stopped);
    for (const slot of this.#slots) {
      clearTimeout(slot.retire);
      if (!slot.ready || slot.job || slot.ending) {
        this.#end(slot, stopped);
        continue;
      }
      // An idle worker closes its databases first; one that does not end in time is terminated.
      slot.ending = stopped;
      slot.worker.postMessage({ type: 'close' } satisfies CloseWorker);
      const timer = setTimeout(() => void slot.worker.terminate(), CLOSE_GRACE_MS);
      slot.worker.once('exit', () => clearTimeout(timer));
    }
    await Promise.all(this.#exits);
  }

  /** `preload`: a warm worker, which loads every group's operations before it is ready. */
  #spawn(preload = false): void {
    const worker = new Worker(ENTRY, {
      workerData: { ...this.#data, preload },
      env: SHARE_ENV,
      resourceLimits: {
        maxOldGenerationSizeMb: Math.ceil(this.memoryMb * HARD_LIMIT_FACTOR),
        ...(this.#youngMb === undefined ? {} : { maxYoungGenerationSizeMb: this.#youngMb }),
      },
    });
    const slot: Slot = {
      worker,
      preload,
      ready: false,
      job: undefined,
      watch: undefined,
      collecting: false,
      retire: undefined,
      ending: undefined,
    };
    this.#slots.add(slot);
    let failure: Error | undefined;
    worker.on('message', (message: FromWorker) => this.#receive(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      failure = error;
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') slot.ending ??= outOfMemory(this.memoryMb);
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.#exits.add(exited);
    void exited.then(() => {
      this.#exits.delete(exited);
      this.#exited(slot, failure);
    });
  }

  #receive(slot: Slot, message: FromWorker): void {
    if (message.type === 'cache') {
      answerCacheCall(slot.worker, this.#documents, message);
      return;
    }
    if (message.type === 'idle') {
      slot.collecting = false;
    } else if (message.type === 'ready') {
      slot.ready = true;
      if (this.#starting && --this.#starting.waiting === 0) {
        this.#started = true;
        this.#starting.resolve();
        this.#starting = undefined;
      }
    } else {
      if (slot.job?.message.id !== message.id) return;
      const job = this.#vacate(slot)!;
      slot.collecting = true;
      if (message.ok) this.#settle(job, undefined, message.value);
      else this.#settle(job, fromWire(message.error));
    }
    this.#dispatch();
    if (slot.ready && !slot.job && !slot.collecting) this.#retireWhenIdle(slot);
  }

  #exited(slot: Slot, failure: Error | undefined): void {
    this.#slots.delete(slot);
    const job = this.#vacate(slot);
    if (job) this.#lost(job, slot.ending, failure);
    if (this.#closed) return;
    if (!slot.ready) {
      const error = failure ?? new Error('an operation worker stopped while starting');
      if (this.#starting) {
        this.#starting.reject(error);
        this.#starting = undefined;
        void this.close();
        return;
      }
      log.error({ err: String(error) }, 'operation worker failed to start; trying again');
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (!this.#closed) this.#spawn(slot.preload);
      }, RESPAWN_PAUSE_MS);
      this.#timers.add(timer);
      return;
    }
    if (this.#slots.size < this.warm) this.#spawn(true);
    this.#dispatch();
  }

  /** `job`'s worker is gone: ended by the pool or by V8 (`ending`), or died of `failure`. */
  #lost(job: Job, ending: Error | undefined, failure: Error | undefined): void {
    const { group, operation, correlationId } = job.message;
    const cause = failure?.message ?? 'it exited without an error';
    if (!ending && ++job.crashes < CRASHES_PER_JOB) {
      log.warn(
        { group, operation, correlationId, err: cause },
        'worker lost; the request runs again on a fresh one',
      );
      this.#queue.unshift(job);
      workerQueue.set(this.#queue.length);
      return;
    }
    const error = ending ?? crashedOn(operation, job.crashes, cause);
    log.error({ group, operation, correlationId, err: String(error) }, 'worker lost');
    this.#settle(job, error);
  }

  /** Hand waiting jobs to idle, ready workers; start more while jobs wait and room is left. */
  #dispatch(): void {
    const room = backgroundRoom(this.size);
    let background = [...this.#slots].filter((slot) => slot.job?.background).length;
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job || slot.collecting || slot.ending) continue;
      const job = this.#queue.take(background, room);
      if (!job) break;
      if (job.background) background += 1;
      workerWait.observe({ group: job.message.group }, (performance.now() - job.queued) / 1000);
      clearTimeout(slot.retire);
      slot.retire = undefined;
      try {
        slot.worker.postMessage(job.message);
        count('handoff.pool');
        slot.job = job;
        slot.watch = setInterval(() => this.#watchHeap(slot, job), HEAP_WATCH_MS);
      } catch (error) {
        // The input could not be copied to the worker (e.g. nested too deeply for structured clone).
        this.#settle(job, fromWire(toWire(error, job.message.input)));
      }
    }
    if (this.#closed || !this.#started) return;
    const loading = [...this.#slots].filter((slot) => !slot.ready).length;
    const free = [...this.#slots].filter(
      (slot) => slot.ready && !slot.job && !slot.collecting && !slot.ending,
    );
    // One spare is kept while any worker is busy, so that the next request does not wait for a
    // worker to load behind a long one; and one more per waiting request.
    const wanted = this.#queue.length + (this.#slots.size > 0 && free.length === 0 ? 1 : 0);
    for (let more = wanted - loading; more > 0 && this.#slots.size < this.size; more -= 1) {
      this.#spawn();
    }
  }

  /** A worker beyond the warm ones, idle for idleMs, is closed. */
  #retireWhenIdle(slot: Slot): void {
    if (this.#slots.size <= this.warm || slot.retire) return;
    slot.retire = setTimeout(() => {
      slot.retire = undefined;
      if (slot.job || slot.collecting || slot.ending || this.#slots.size <= this.warm) return;
      slot.ending = new Error('idle');
      slot.worker.postMessage({ type: 'close' } satisfies CloseWorker);
    }, this.idleMs);
    slot.retire.unref();
  }

  /** Give up on `job`: out of the queue, or its worker terminated (and replaced). */
  #abandon(job: Job, error: Error, reason: 'deadline' | 'memory' | 'abandoned'): void {
    this.#queue.remove(job);
    for (const slot of this.#slots) {
      if (slot.job === job) {
        this.#vacate(slot);
        this.#end(slot, error);
        workerStopped.inc({ reason });
        const { group, operation, correlationId } = job.message;
        log.warn(
          { group, operation, correlationId, reason, err: error.message },
          'operation worker terminated',
        );
      }
    }
    this.#settle(job, error);
  }

  /** The slot's job, taken off it (and its heap no longer watched). */
  #vacate(slot: Slot): Job | undefined {
    const job = slot.job;
    slot.job = undefined;
    clearInterval(slot.watch);
    slot.watch = undefined;
    return job;
  }

  #watchHeap(slot: Slot, job: Job): void {
    slot.worker.getHeapStatistics().then(
      (heap) => {
        if (slot.job === job && heap.used_heap_size > this.memoryMb * 1024 * 1024) {
          this.#abandon(job, outOfMemory(this.memoryMb), 'memory');
        }
      },
      () => {}, // the worker is gone already; its exit settles the job
    );
  }

  #end(slot: Slot, reason: Error): void {
    slot.ending ??= reason;
    void slot.worker.terminate();
  }

  #settle(job: Job, error: Error | undefined, value?: unknown): void {
    job.release();
    workerQueue.set(this.#queue.length);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
