// The chain's events by name, each read by one consumer group (topics.yaml gives the group its
// topic). The catalogue's outbox names the event it keeps; the relay publishes it to the topic
// of that group (consumers/outbox.ts). A Retry or a replay publishes the event that starts the
// step again: resource.uploaded starts annotate, step.annotated starts import, and so on.
import type { ChainStep } from './status.ts';

export const CHAIN_EVENTS = {
  'resource.uploaded': 'chain-annotate',
  'resource.deleted': 'chain-forget',
  'step.annotated': 'chain-import',
  'step.imported': 'chain-describe',
  'step.described': 'chain-select-mapping',
  'step.mapping-selected': 'chain-convert',
} as const;

export type ChainEventName = keyof typeof CHAIN_EVENTS;
export type ChainGroup = (typeof CHAIN_EVENTS)[ChainEventName];

/** The consumer group that runs `step`. */
export const groupOf = (step: ChainStep): ChainGroup => `chain-${step}`;

/** The step a consumer group runs (chain-forget runs none). */
export function stepOf(group: string): ChainStep | undefined {
  if (group === 'chain-forget' || !Object.hasOwn(EVENT_OF, group)) return undefined;
  return group.slice('chain-'.length) as ChainStep;
}

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
