// The automation chain declared once, as data (DESIGN §2, issue 27). One entry per step, in
// chain order: the event it consumes, the domain function its consumer calls, the contracts of
// what it reads and publishes, the resource it makes and its format, where its work runs, how
// the bus retries it and which step comes next. What used to be written in each place is
// derived from this table: the step list and status rows (status.ts), the events and consumer
// groups (events.ts), the derived resources' names (names.ts), the consumers and their `next`
// (consumers/chain-steps.ts), the dead-letter collectors (consumers/chain-dead-letters.ts) and
// the order of the status rows on the pages. test/chain/pipeline.test.ts checks topics.yaml's chain part against it.
//
// Adding a step: an entry here, its domain function, its work in consumers/chain-steps.ts
// (the compiler asks for one per step) and, if it shows more than its summary, its page view.
// It imports only the contracts' file names, so every module of the chain can read it.
import { CHAIN_STEP_FILE, RESOURCE_EVENT_FILE } from '../contracts/chain.ts';

/** A resource a step makes from the source `<base>.<ext>`. */
export interface OutputDeclaration {
  /** Its kind, as names.ts and the derivation of the catalogue know it. */
  readonly kind: string;
  /** Its name, from the source's base name. */
  readonly suffix: string;
  /** The catalogue resource's `format` field. */
  readonly format: string;
  readonly contentType: string;
  /** The original platform derives it under this name too (research D2), so old links find it. */
  readonly original: boolean;
  /** The labld service path that does the same work: the resource's `wasGeneratedBy`. */
  readonly generatedBy?: string;
}

/** Where a step's work runs: a worker thread of the process's pool, or its main thread. */
export type RunsIn = 'worker' | 'main';

export interface StepDeclaration {
  readonly step: string;
  /** The event whose message starts it (the outbox writes it for a Retry or a replay). */
  readonly consumes: string;
  /** The domain function its consumer calls (`module#export`; checked by the pipeline test). */
  readonly domain: string;
  /** The payload contracts (schemas/): of the event it reads, and of the one it publishes. */
  readonly input: string;
  readonly output: string;
  /** The resource it makes; none: its result is a table (import) or its status (select-mapping). */
  readonly makes?: OutputDeclaration;
  readonly runsIn: RunsIn;
  /** How often the bus runs it before it dead-letters the message (topics.yaml says the same). */
  readonly retry: { readonly maxAttempts: number; readonly backoffMs: number };
  /** The step it hands on to; none: the chain ends with it. */
  readonly next?: string;
  /**
   * The step decides whether the chain goes on (select-mapping: only when a mapping fits, else
   * the source rests in `needs-mapping`), and it runs again on a replay of a run it has done,
   * acting only when its choice changed.
   */
  readonly selects?: boolean;
  /**
   * The step's outcome is a facet of the dataset search: its done statuses' `summary.outcome`
   * counted per dataset by package_search (`facet.field`), searchable as `<field>:<outcome>` and
   * listed on the search page under `title`.
   */
  readonly facet?: { readonly field: string; readonly title: string };
}

const TURTLE = 'text/turtle; charset=utf-8';
const RETRY = { maxAttempts: 5, backoffMs: 200 } as const;

export const PIPELINE = [
  {
    step: 'annotate',
    consumes: 'resource.uploaded',
    domain: 'lib/chain/steps.ts#annotateStep',
    input: RESOURCE_EVENT_FILE,
    output: CHAIN_STEP_FILE,
    makes: {
      kind: 'descriptor',
      suffix: '-metadata.jsonld',
      format: 'json-ld',
      contentType: 'application/ld+json',
      original: true,
      generatedBy: '/annotator/api/annotate',
    },
    runsIn: 'worker',
    retry: RETRY,
    next: 'import',
  },
  {
    step: 'import',
    consumes: 'step.annotated',
    domain: 'lib/datastore/import.ts#importCsv',
    input: CHAIN_STEP_FILE,
    output: CHAIN_STEP_FILE,
    runsIn: 'worker',
    retry: RETRY,
    next: 'describe',
  },
  {
    step: 'describe',
    consumes: 'step.imported',
    domain: 'lib/chain/steps.ts#describeStep',
    input: CHAIN_STEP_FILE,
    output: CHAIN_STEP_FILE,
    makes: {
      kind: 'turtle',
      suffix: '.ttl',
      format: TURTLE,
      contentType: TURTLE,
      original: true,
      generatedBy: '/annotator/api/rdf',
    },
    runsIn: 'worker',
    retry: RETRY,
    next: 'select-mapping',
  },
  {
    step: 'select-mapping',
    consumes: 'step.described',
    domain: 'lib/chain/select.ts#selectMapping',
    input: CHAIN_STEP_FILE,
    output: CHAIN_STEP_FILE,
    runsIn: 'worker',
    retry: RETRY,
    next: 'convert',
    selects: true,
  },
  {
    step: 'convert',
    consumes: 'step.mapping-selected',
    domain: 'lib/chain/steps.ts#convertStep',
    input: CHAIN_STEP_FILE,
    output: CHAIN_STEP_FILE,
    makes: {
      kind: 'joined',
      suffix: '-joined.ttl',
      format: TURTLE,
      contentType: TURTLE,
      original: true,
      generatedBy: '/converter/api/createrdf',
    },
    runsIn: 'worker',
    retry: RETRY,
    next: 'validate',
  },
  {
    // Beyond the spec: the joined graph checked with SHACL against the shapes the mapping
    // library holds beside its mapping (`<mapping base>-shapes.ttl`).
    step: 'validate',
    consumes: 'step.converted',
    domain: 'lib/chain/validate.ts#validateStep',
    input: CHAIN_STEP_FILE,
    output: CHAIN_STEP_FILE,
    makes: {
      kind: 'validation',
      suffix: '-validation.ttl',
      format: TURTLE,
      contentType: TURTLE,
      original: false,
      generatedBy: '/converter/api/rdfvalidator',
    },
    runsIn: 'worker',
    retry: RETRY,
    facet: { field: 'shacl', title: 'SHACL validation' },
  },
] as const satisfies readonly StepDeclaration[];

/**
 * The chain's end besides its steps: resource.deleted, read by chain-forget on the main thread
 * (it only deletes what a step still in flight wrote after the delete).
 */
export const FORGET = {
  consumes: 'resource.deleted',
  group: 'chain-forget',
  input: RESOURCE_EVENT_FILE,
  runsIn: 'main',
  retry: RETRY,
} as const;

export type PipelineEntry = (typeof PIPELINE)[number];
export type ChainStepName = PipelineEntry['step'];

/** The step a new run starts with: its status names the source's current run. */
export const FIRST_STEP: ChainStepName = PIPELINE[0].step;

/** The consumer group that runs a step: `chain-<step>`. */
export const groupOfStep = <S extends string>(step: S): `chain-${S}` => `chain-${step}`;

/** The dead-letter collector group of a chain group: `<group>-dead-letters`. */
export const deadLetterGroup = (group: string) => `${group}-dead-letters`;

/** A step's entry. */
export function stepEntry(step: string): StepDeclaration {
  const entry = (PIPELINE as readonly StepDeclaration[]).find((s) => s.step === step);
  if (!entry) throw new Error(`no chain step named ${step}`);
  return entry;
}

/** A facet field a step declares. */
export type StepFacetField = Extract<PipelineEntry, { facet: { field: string } }>['facet']['field'];

/** The search facets the steps declare, each with its step. */
export const STEP_FACETS: readonly { field: StepFacetField; title: string; step: string }[] = (
  PIPELINE as readonly StepDeclaration[]
).flatMap((s) => (s.facet ? [{ ...s.facet, field: s.facet.field as StepFacetField, step: s.step }] : []));

/** The outputs of the chain, in chain order, each with the step that makes it. */
export const OUTPUTS: readonly (OutputDeclaration & { step: string })[] = (
  PIPELINE as readonly StepDeclaration[]
).flatMap((s) => (s.makes ? [{ ...s.makes, step: s.step }] : []));
