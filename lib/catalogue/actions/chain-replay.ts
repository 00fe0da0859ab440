// Running one step of the chain again: Retry of a failed step (labld_chain_retry with `step`,
// editors), and the chain's dead letters (labld_dead_letter_list / _replay, the dataset's
// admins and sysadmins). Both queue the step and keep the event that starts it in the outbox, in
// one transaction (the relay publishes it, consumers/outbox.ts), so a Retry or replay that is
// answered is published, and nothing else is re-run: the steps before it keep their outputs.
import {
  eventStarting,
  groupOf,
  NEEDS_MAPPING,
  queueStep,
  replayOf,
  type ChainStep,
  type DeadLetter,
} from '../../chain/index.ts';
import type { ChainStepEvent, ResourceEvent } from '../../contracts/chain.ts';
import { conflict, isDomainError, notFound } from '../../process/errors.ts';
import type { Dataset, Resource } from '../model.ts';
import { isMappingFile, mappingGroup } from '../mapping-library.ts';
import type { CatalogueStore } from '../store/contract.ts';
import { resourceEvent } from './chain-events.ts';
import { datasetFor, type Action } from './context.ts';
import { required } from './params.ts';

const now = () => new Date().toISOString();

/** The event that starts `step` of the source's `run`: convert's names the mapping select-mapping chose. */
async function startingEvent(
  tx: CatalogueStore,
  resource: Resource,
  step: ChainStep,
  run: string,
): Promise<ResourceEvent | ChainStepEvent> {
  if (step === 'annotate') return resourceEvent(resource, run);
  const event: ChainStepEvent = { dataset_id: resource.package_id, resource_id: resource.id, run };
  if (step !== 'convert') return event;
  const select = (await tx.getStepStatus(resource.id, 'select-mapping'))?.status;
  const mapping = select?.state === 'done' && select.run === run ? select.summary.mapping : undefined;
  if (!mapping) {
    throw conflict('step: which mapping convert ran with is not known: retry select-mapping', 'step');
  }
  return { ...event, mapping };
}

/**
 * Queues the failed (or needs-mapping) `step` of `resource` again in its run and keeps the event that starts it;
 * that step's dead letters go (this is their replay). Answers the run.
 */
export async function retryStep(tx: CatalogueStore, resource: Resource, step: ChainStep): Promise<string> {
  const current = (await tx.getStepStatus(resource.id, step))?.status;
  if (!current) throw notFound(`step: ${resource.name} has no ${step} step to retry`, 'step');
  // A source waiting for a mapping selects again (the library may have one now).
  if (current.state !== 'failed' && current.state !== NEEDS_MAPPING) {
    throw conflict(
      `step: the ${step} step of ${resource.name} is ${current.state}; only a failed or waiting step is retried`,
      'step',
    );
  }
  const first = (await tx.getStepStatus(resource.id, 'annotate'))?.status;
  if (first?.run !== current.run) {
    throw conflict(
      `step: the ${step} step belongs to an older run of ${resource.name}: retry the whole chain`,
      'step',
    );
  }
  const payload = await startingEvent(tx, resource, step, current.run);
  const at = now();
  await tx.putStepStatus({
    source_resource_id: resource.id,
    package_id: resource.package_id,
    status: queueStep(current, { step, run: current.run, at }),
  });
  await tx.addEvent({ event: eventStarting(step), key: resource.package_id, payload });
  await tx.deleteDeadLetters({ source_resource_id: resource.id, group: groupOf(step) });
  return current.run;
}

/**
 * The library has a new mapping: every source whose selection found none has select-mapping
 * queued again in its run, its event kept in the outbox of the caller's transaction (the
 * change that brought the mapping), as Retry does. Answers how many were queued.
 */
export async function reselectWaiting(tx: CatalogueStore): Promise<number> {
  let queued = 0;
  for (const row of await tx.listStepStatus({ step: 'select-mapping', state: NEEDS_MAPPING })) {
    const source = await tx.getResource(row.source_resource_id);
    if (!source) continue;
    try {
      await retryStep(tx, source, 'select-mapping');
      queued += 1;
    } catch (error) {
      // A selection of an older run: the source's newer run selects by itself.
      if (!(isDomainError(error) && error.kind === 'conflict')) throw error;
    }
  }
  return queued;
}

/** Whether `resource` of `dataset` is a mapping of the library (a YAML file of one of its datasets). */
export const inLibrary = (dataset: Dataset, resource: Resource): boolean =>
  isMappingFile(resource) && dataset.groups.some((g) => g.name === mappingGroup());

/** A dead letter as the API shows it. */
export const deadLetterDict = (d: DeadLetter) => ({
  id: d.id,
  resource_id: d.source_resource_id,
  run: d.run,
  group: d.group,
  topic: d.topic,
  error: d.error,
  attempts: d.attempts,
  failed_at: d.failed_at,
  event: d.payload,
});

/** labld_dead_letter_list {id: dataset}: its chain's dead letters, oldest first. */
const deadLetterList: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'chain.dead-letters', required(params, 'id'));
  const letters = await deps.store.listDeadLetters({ package_id: dataset.id });
  return { dataset_id: dataset.id, dead_letters: letters.map(deadLetterDict) };
};

/**
 * labld_dead_letter_replay {id}: the dead letter's event is published again to the topic it
 * failed on (its step, if failed in that run, queued again), and it leaves the list.
 */
const deadLetterReplay: Action = async (deps, viewer, params) => {
  const id = required(params, 'id');
  const missing = () => notFound(`dead letter not found: ${id}`, 'id');
  const letter = await deps.store.getDeadLetter(id);
  if (!letter) throw missing();
  try {
    await datasetFor(deps.store, viewer, 'chain.dead-letters', letter.package_id);
  } catch (error) {
    // The dataset's id is not the caller's reference: say it of the dead letter.
    throw isDomainError(error) && error.kind === 'not-found' ? missing() : error;
  }
  const { event, step, payload } = replayOf(letter);
  await deps.store.transaction(async (tx) => {
    if (!(await tx.getDeadLetter(id))) throw missing(); // replayed meanwhile
    const current = step && (await tx.getStepStatus(letter.source_resource_id, step))?.status;
    if (current && current.run === letter.run && current.state === 'failed') {
      await tx.putStepStatus({
        source_resource_id: letter.source_resource_id,
        package_id: letter.package_id,
        status: queueStep(current, { step: current.step, run: current.run, at: now() }),
      });
    }
    await tx.addEvent({ event, key: letter.key ?? letter.package_id, payload });
    await tx.deleteDeadLetters({ id });
  });
  return { id, replayed: true, topic: letter.topic };
};

export const deadLetterActions = {
  labld_dead_letter_list: deadLetterList,
  labld_dead_letter_replay: deadLetterReplay,
};
