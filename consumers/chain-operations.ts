// The chain steps' work as operations of the worker threads (consumers/workers/): annotating,
// importing and converting parse and serialise for as long as a file is big, so they run off
// the main thread like every request operation. The main thread keeps the status bookkeeping
// and the events (consumers/chain.ts); a worker reads the source from its own stores, does
// the step, stores its output, writes progress onto the status and returns the step's result.
import { notFound } from '../lib/process/errors.ts';
import type { Resource } from '../lib/catalogue/model.ts';
import { baseUrl } from '../lib/services.ts';
import type { Operation, OperationEnv } from './request-consumer.ts';
import { progressWriter, type ChainEvent } from './chain.ts';
import { stepWork } from './chain-steps.ts';
import { stepOf } from '../lib/chain/index.ts';
import { countingIn } from '../lib/process/counters.ts';

/** The one operation of a chain group: `work` with `{event}`. */
export const CHAIN_OPERATION = 'work';

export function operationsFor(group: string, env: OperationEnv): Record<string, Operation<never>> {
  const step = stepOf(group);
  if (!step) return {}; // chain-forget works on the main thread: it only deletes
  const entry = stepWork(step);
  // `source`: the resource as the main thread read it before handing the step over.
  const work: Operation<{ event: ChainEvent; source?: Resource }> = async (
    { event, source: given },
    { signal, later },
  ) => {
    const deps = {
      store: await env.stores.catalogue(),
      datastore: await env.stores.datastore(),
      blobs: env.blobs,
      siteUrl: baseUrl(),
      documents: env.documents,
    };
    const source = given ?? (await deps.store.getResource(event.resource_id));
    if (!source) throw notFound(`the resource ${event.resource_id} is gone`, 'resource_id');
    const progress = progressWriter(deps, event, step);
    try {
      return await countingIn(step, () =>
        entry.work({ deps, event, source, signal, onProgress: progress.report, ...(later ? { later } : {}) }),
      );
    } finally {
      await progress.flush();
    }
  };
  return { [CHAIN_OPERATION]: work as Operation<never> };
}
