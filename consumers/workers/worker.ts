// An operation worker: loads the operations of a consumer group when its first request comes
// (or all of its process's groups at start when it is a warm one: the annotator indexes QUDT
// there), then runs one request at a time. The claim check happens here too, so neither parsing
// nor stringifying a large payload ever blocks the main thread. Cancellation is the main thread
// terminating this worker; nothing here has to cooperate.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { checkIn, checkOut, claimedPath } from '../../lib/blobs/claim-check.ts';
import { notFound } from '../../lib/process/errors.ts';
import { log } from '../../lib/process/log.ts';
import { exposedGc } from '../../lib/process/quiet-collect.ts';
import type { Operation, OperationEnv } from '../request-consumer.ts';
import { lazyStores } from '../stores.ts';
import type { OperationsModule } from './operations.ts';
import { openSharedStores } from '../../lib/shared/open.ts';
import { PortDocumentCache, type CacheReply } from './document-cache.ts';
import { toWire, type CloseWorker, type FromWorker, type RunJob, type WorkerData } from './protocol.ts';

const port = parentPort!;
const { sources, dataDir, preload, collectAbove } = workerData as WorkerData;
// On Redis each worker has its own connection; in process memory the cache is the main thread's.
const shared = await openSharedStores();
const portCache = shared.kind === 'memory' ? new PortDocumentCache(port, shared.documents.limits) : undefined;
const env: OperationEnv = {
  blobs: blobStoreIn(dataDir),
  stores: lazyStores(dataDir),
  documents: portCache ?? shared.documents,
};
type Operations = Record<string, Operation<never>>;
const groups = new Map<string, Promise<Operations>>();

async function load(source: WorkerData['sources'][number]): Promise<Operations> {
  // A source with its own module (test fixtures) loads only that: the groups' table imports the
  // services' contracts and the pipeline, which a fixture's small heap need not hold.
  return source.module
    ? ((await import(source.module)) as OperationsModule).operationsFor(source.group, env)
    : (await import('./operations.ts')).loadOperations(source, env);
}

/** `group`'s operations, its module loaded once (again after a failed load); none for a group not ours. */
function operationsOf(group: string): Promise<Operations> {
  const source = sources.find((s) => s.group === group);
  if (!source) return Promise.resolve({});
  let loading = groups.get(group);
  if (!loading) {
    loading = load(source);
    groups.set(group, loading);
    loading.catch(() => groups.delete(group));
  }
  return loading;
}

if (preload) for (const source of sources) await operationsOf(source.group);

// Garbage is collected before a request (after loading, and after an answer that left more than
// `collectAbove`), so that the pool's heap watch counts what this request holds, not what the
// last one left: the same request gets the same answer (issue 25, finding 6), give or take
// `collectAbove`, a small part of the limit. Not after every answer: a full collection of a
// loaded worker's heap took ~120 ms, and under 50 clients the workers spent 60–90% of their time
// in it, which every page waited behind.
const gc = exposedGc();
/** The heap in use after the last collection: what the worker holds of its own. */
let clean = 0;
function collectGarbage(): void {
  gc();
  clean = getHeapStatistics().used_heap_size;
}
collectGarbage();

function idle(): void {
  if (getHeapStatistics().used_heap_size - clean > collectAbove) collectGarbage();
  port.postMessage({ type: 'idle' } satisfies FromWorker);
}

/** Never aborted: the pool ends a request by terminating the worker that runs it. */
const never = new AbortController().signal;

/**
 * Runs `job`; `seen.fields` keeps the checked-out input for naming the field of an error, `later`
 * the work it left for after its answer.
 */
async function run(job: RunJob, seen: { fields: unknown }, later: (() => Promise<void>)[]): Promise<unknown> {
  const fresh = !groups.has(job.group);
  const operations = await operationsOf(job.group);
  // Loading's garbage is not this request's: the pool's heap watch counts what the request holds.
  if (fresh) collectGarbage();
  const operation = Object.hasOwn(operations, job.operation) ? operations[job.operation] : undefined;
  if (!operation) throw notFound(`operation ${job.operation} is not offered by ${job.group}`, 'operation');
  const fields = (await checkOut(env.blobs, job.input)) as Record<string, unknown>;
  seen.fields = fields;
  const value = await operation(fields as never, {
    correlationId: job.correlationId,
    requestId: job.requestId,
    credential: job.credential,
    // Every job comes off the bus, which checked it on consume unless a claim stood for it.
    checked: claimedPath(env.blobs, job.input) === undefined,
    signal: never,
    later: (task) => later.push(task),
  });
  return checkIn(env.blobs, value);
}

/**
 * The work a job left for after its answer, before the worker says it is idle (the pool gives it
 * no job meanwhile). Its answer is given: a failure here is only logged.
 */
async function afterAnswer(job: RunJob, later: (() => Promise<void>)[]): Promise<void> {
  for (const task of later) {
    await task().catch((error: unknown) =>
      log.warn(
        { group: job.group, operation: job.operation, err: String(error) },
        'work after the answer failed',
      ),
    );
  }
}

port.on('message', (job: RunJob | CloseWorker | CacheReply) => {
  if (job.type === 'cache-reply') {
    portCache?.receive(job);
    return;
  }
  if (job.type === 'close') {
    // A stop: the databases are closed (WAL checkpointed, connections ended) before the thread ends.
    void Promise.allSettled([env.stores.close(), shared.close()]).finally(() => process.exit(0));
    return;
  }
  const seen = { fields: job.input };
  const failed = (error: unknown) => {
    const wire = toWire(error, seen.fields);
    if (wire.kind === 'internal') {
      log.error(
        { group: job.group, operation: job.operation, correlationId: job.correlationId, err: error },
        'operation failed',
      );
    }
    port.postMessage({ type: 'done', id: job.id, ok: false, error: wire } satisfies FromWorker);
  };
  const later: (() => Promise<void>)[] = [];
  run(job, seen, later)
    .then((value) => {
      // A value structured clone refuses (or too deep for it) is this request's error, not the worker's.
      try {
        port.postMessage({ type: 'done', id: job.id, ok: true, value } satisfies FromWorker);
      } catch (error) {
        failed(error);
      }
    }, failed)
    .then(() => afterAnswer(job, later))
    .finally(idle);
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
