// The chain's events by name, each read by one consumer group (topics.yaml gives the group its
// topic), as the pipeline declares them (pipeline.ts). The catalogue's outbox names the event
// it keeps; the relay publishes it to the topic of that group (consumers/outbox.ts). A Retry or
// a replay publishes the event that starts the step again: resource.uploaded starts annotate,
// step.annotated starts import, and so on.
import { FORGET, PIPELINE, groupOfStep, type PipelineEntry } from './pipeline.ts';
import type { ChainStep } from './status.ts';

export type ChainEventName = PipelineEntry['consumes'] | typeof FORGET.consumes;
export type ChainGroup = `chain-${ChainStep}` | typeof FORGET.group;

/** Each event of the chain and the consumer group that reads it. */
export const CHAIN_EVENTS = Object.fromEntries([
  ...PIPELINE.map((s) => [s.consumes, groupOfStep(s.step)]),
  [FORGET.consumes, FORGET.group],
]) as Record<ChainEventName, ChainGroup>;

/** The consumer group that runs `step`. */
export const groupOf = (step: ChainStep): ChainGroup => groupOfStep(step);

/** The step each step group runs. */
const STEP_OF = new Map<string, ChainStep>(PIPELINE.map((s) => [groupOfStep(s.step), s.step]));

/** The step a consumer group runs (chain-forget runs none). */
export const stepOf = (group: string): ChainStep | undefined => STEP_OF.get(group);

/** The event each consumer group reads. */
const EVENT_OF = Object.fromEntries(
  Object.entries(CHAIN_EVENTS).map(([event, group]) => [group, event as ChainEventName]),
) as Record<ChainGroup, ChainEventName>;

/** The event a consumer group reads, or undefined for a group that is not the chain's. */
export function eventReadBy(group: string): ChainEventName | undefined {
  return Object.hasOwn(EVENT_OF, group) ? EVENT_OF[group as ChainGroup] : undefined;
}

/** The event whose message starts `step`. */
export const eventStarting = (step: ChainStep): ChainEventName => EVENT_OF[groupOf(step)];
