// The automation chain's events (issue 14) as they travel on the bus: `resource.uploaded` and
// `resource.deleted`, published from the catalogue's outbox, and the event each step publishes
// for the next. Their files in schemas/ are these objects written out by tools/contracts.ts.
// Files travel by reference: a consumer reads the source and what was derived from it from the
// catalogue (DESIGN §2, "Payloads").
import { SCHEMA_BASE } from './requests.ts';

/** resource.uploaded / resource.deleted (key: the dataset id). */
export interface ResourceEvent {
  dataset_id: string;
  resource_id: string;
  /** The chain run of this version of the source (the step status names it). */
  run: string;
  /** The source's file name. */
  name: string;
}

/** A step finished for a source (key: the dataset id); convert's carries the chosen mapping. */
export interface ChainStepEvent {
  dataset_id: string;
  resource_id: string;
  run: string;
  mapping?: { name: string; url: string; resource_id: string };
}

const ID = { type: 'string', minLength: 1, maxLength: 100 };

export const RESOURCE_EVENT_FILE = 'resource-event.schema.json';
export const CHAIN_STEP_FILE = 'chain-step.schema.json';

const GENERATED = 'Generated from lib/contracts/chain.ts by tools/contracts.ts: edit that, not this file.';

/** A topic payload's schema file: an object with exactly these properties. */
function eventSchema(
  file: string,
  head: { title: string; description: string; required: string[] },
  properties: Record<string, unknown>,
): Record<string, unknown> {
  const { title, description, required } = head;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${file}`,
    title,
    description: `${description} ${GENERATED}`,
    type: 'object',
    required,
    additionalProperties: false,
    properties,
  };
}

export const resourceEventSchema = () =>
  eventSchema(
    RESOURCE_EVENT_FILE,
    {
      title: 'resource event',
      description:
        'resource.uploaded (a file or link of a trigger format was stored, or its file, link or format changed) ' +
        'or resource.deleted, published by the catalogue outbox relay after the change was committed.',
      required: ['dataset_id', 'resource_id', 'run', 'name'],
    },
    {
      dataset_id: ID,
      resource_id: ID,
      run: { ...ID, description: 'the chain run of this version of the source' },
      name: { type: 'string', maxLength: 1000, description: "the source's file name" },
    },
  );

export const chainStepSchema = () =>
  eventSchema(
    CHAIN_STEP_FILE,
    {
      title: 'chain step done',
      description:
        "A step of the automation chain finished for a source resource; the next step's consumer group reads it.",
      required: ['dataset_id', 'resource_id', 'run'],
    },
    {
      dataset_id: ID,
      resource_id: ID,
      run: ID,
      mapping: {
        description: 'the mapping select-mapping chose (for convert)',
        type: 'object',
        required: ['name', 'url', 'resource_id'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', maxLength: 1000 },
          url: { type: 'string', maxLength: 4000 },
          resource_id: ID,
        },
      },
    },
  );

const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

/** The chain's schema files: name and text. */
export const chainSchemaFiles = (): [string, string][] => [
  [RESOURCE_EVENT_FILE, text(resourceEventSchema())],
  [CHAIN_STEP_FILE, text(chainStepSchema())],
];
