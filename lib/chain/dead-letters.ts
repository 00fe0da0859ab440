// The chain's dead letters as the catalogue keeps them, so that admins see them and replay them
// from the pages. The bus puts a message that failed for good on its topic's dead-letter topic
// (lib/bus/dead-letter.ts: the original bytes, with headers saying where it came from and why it
// failed); a collector group on each of the chain's dead-letter topics turns each into a
// DeadLetter here. A replay publishes the original event again to the topic it failed on.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { DLQ_HEADERS } from '../bus/dead-letter.ts';
import {
  chainStepSchema,
  resourceEventSchema,
  type ChainStepEvent,
  type ResourceEvent,
} from '../contracts/chain.ts';
import { createAjv, describeAjvError } from '../json-schema.ts';
import { invalid } from '../process/errors.ts';
import { eventReadBy, stepOf, type ChainEventName } from './events.ts';
import type { ChainStep } from './status.ts';

/** A dead-lettered message of the chain. */
export interface DeadLetter {
  /** Where the dead letter itself is kept (`<dead-letter topic>/<partition>/<offset>`): a redelivery is the same one. */
  id: string;
  package_id: string;
  source_resource_id: string;
  run: string;
  /** The consumer group that gave up on it. */
  group: string;
  /** The topic it failed on. */
  topic: string;
  /** The error the bus recorded, in the handler's words. */
  error: string;
  attempts: number;
  /** ISO 8601. */
  failed_at: string;
  key: string | null;
  /** The original event. */
  payload: Record<string, unknown>;
}

/** A message of a dead-letter topic, as a consumer sees it. */
export interface DeadLetterMessage {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  value: unknown;
}

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The dead letter a message of a chain dead-letter topic is; invalid when it is not the chain's. */
export function deadLetterOf(message: DeadLetterMessage): DeadLetter {
  const h = message.headers;
  const group = h[DLQ_HEADERS.group] ?? '';
  if (eventReadBy(group) === undefined) {
    throw invalid(
      `${DLQ_HEADERS.group}: ${JSON.stringify(group)} is not a group of the chain`,
      DLQ_HEADERS.group,
    );
  }
  const payload = message.value;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw invalid('the dead letter is not an event object', 'value');
  }
  const p = payload as Record<string, unknown>;
  for (const field of ['dataset_id', 'resource_id', 'run'] as const) {
    if (!text(p[field])) throw invalid(`value.${field}: missing`, `value.${field}`);
  }
  const attempts = Number(h[DLQ_HEADERS.attempts]);
  const failedAt = h[DLQ_HEADERS.failedAt];
  return {
    id: `${message.topic}/${message.partition}/${message.offset}`,
    package_id: p.dataset_id as string,
    source_resource_id: p.resource_id as string,
    run: p.run as string,
    group,
    topic: h[DLQ_HEADERS.topic] ?? '',
    error: h[DLQ_HEADERS.error] ?? 'no error recorded',
    attempts: Number.isInteger(attempts) && attempts >= 0 ? attempts : 0,
    failed_at: failedAt && !Number.isNaN(Date.parse(failedAt)) ? failedAt : new Date().toISOString(),
    key: message.key,
    payload: p,
  };
}

let validators: { resource: ValidateFunction; step: ValidateFunction } | undefined;

/**
 * The event a replay publishes: the dead letter's own, if it still fits its topic's schema (a
 * message that never did stays a dead letter: published, it would be refused again).
 */
export function replayOf(letter: DeadLetter): {
  event: ChainEventName;
  step: ChainStep | undefined;
  payload: ResourceEvent | ChainStepEvent;
} {
  const event = eventReadBy(letter.group);
  if (event === undefined) throw invalid(`group: ${letter.group} is not a group of the chain`, 'group');
  if (!validators) {
    const ajv = createAjv();
    validators = { resource: ajv.compile(resourceEventSchema()), step: ajv.compile(chainStepSchema()) };
  }
  const validate = event.startsWith('resource.') ? validators.resource : validators.step;
  if (!validate(letter.payload)) {
    const { field, problem } = describeAjvError(validate.errors![0]!);
    throw invalid(`the dead letter cannot be replayed: ${field || 'the event'} ${problem}`, 'id');
  }
  return {
    event,
    step: stepOf(letter.group),
    payload: letter.payload as unknown as ResourceEvent | ChainStepEvent,
  };
}
