// The chain's steps as consumers: each reads what its step needs from the catalogue (the source
// and what was derived from it), calls the step's domain function (lib/chain, lib/datastore)
// and stores the output as the derived resource of (source, step). consumers/chain.ts does the
// status bookkeeping and the events.
import { text as readText } from 'node:stream/consumers';
import {
  annotateStep,
  convertStep,
  describeStep,
  groupOfStep,
  mappingStrategy,
  NEEDS_MAPPING,
  outputName,
  PIPELINE,
  selectMapping,
  stepEntry,
  type ChainFile,
  type ChainStep,
  type MappingEntry,
  type StepOutput,
  type StepSettings,
} from '../lib/chain/index.ts';
import { downloadUrl } from '../lib/contracts/catalogue.ts';
import type { Resource } from '../lib/catalogue/model.ts';
import { maxOutputBytes } from '../lib/blobs/download.ts';
import { importCsv } from '../lib/datastore/import.ts';
import { countLines } from '../lib/line-breaks.ts';
import { invalid, notFound } from '../lib/process/errors.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import { openSource, textLoader } from '../lib/sources.ts';
import { filesForUser, type CatalogueFiles } from '../lib/catalogue/resource-file.ts';
import { fileName } from '../lib/catalogue/actions/chain-events.ts';
import { DEAD_LETTER_COLLECTORS } from './chain-dead-letters.ts';
import {
  forgotten,
  runStep,
  type ChainConsumer,
  type ChainEvent,
  type RunAgain,
  type ChainDeps,
  type StepDeps,
  type StepResult,
  type StepWork,
} from './chain.ts';
import { setting } from '../lib/process/config.ts';
import { libraryShelves } from '../lib/catalogue/mapping-library.ts';
import { shapesNameFor, validateStep } from '../lib/chain/validate.ts';
import { count } from '../lib/process/counters.ts';

/** The step whose output is the descriptor, which later steps read. */
const DESCRIPTOR_STEP = PIPELINE.find((s) => 'makes' in s && s.makes.kind === 'descriptor')!.step;

/** What a step is told of the configuration (lib/chain reads none itself). */
const settings = (deps: StepDeps): StepSettings => ({
  siteUrl: deps.siteUrl,
  maxOutputBytes: maxOutputBytes(),
});

/**
 * A resource as a file of the chain: an upload's stored file, or the chain's copy of a link's
 * file (fetched by annotate, `linkedFile`).
 */
function fileOf(deps: StepDeps, resource: Resource, field: string): ChainFile {
  if (resource.blob_key === null) {
    throw notFound(`the chain's copy of ${resource.url} is gone: press Retry`, field);
  }
  const url = resource.url_type === 'upload' ? downloadUrl(deps.siteUrl, resource) : resource.url;
  return { url, blob: resource.blob_key, name: fileName(resource) };
}

/**
 * A link's file, fetched through the guarded fetch (LABLD_FETCH_ALLOW) at the start of each run
 * and kept as the link resource's blob: the copy the run's later steps read, so that they all
 * see the same bytes. The resource stays a link; its download is still the link.
 */
async function linkedFile(deps: StepDeps, source: Resource, signal: AbortSignal): Promise<Resource> {
  const policy = policyFromEnv();
  const catalogue = await ownersFiles(deps, source);
  const opened = await openSource(source.url, { field: 'url', blobs: deps.blobs, policy, signal, catalogue });
  const blob = await deps.blobs.putStream(opened.body);
  return deps.store.updateResource(source.id, { blob_key: blob, hash: blob, size: deps.blobs.size(blob) });
}

/**
 * The catalogue's files as the owner of `source` may read them (its uploader, else its dataset's
 * creator): a URL of this catalogue that the source or its mapping names is read with their rights.
 */
async function ownersFiles(deps: StepDeps, source: Resource): Promise<CatalogueFiles> {
  const owner = source.creator_user_id ?? (await deps.store.getDataset(source.package_id))?.creator_user_id;
  return filesForUser(deps.store, owner ?? null);
}

/** The resource derived from `source` by `step`; not-found when it is gone (deleted, or an earlier step redone). */
async function derived(deps: StepDeps, source: Resource, step: string): Promise<Resource> {
  const found = (await deps.store.listResources(source.package_id)).find(
    (r) => r.derivation?.source_resource_id === source.id && r.derivation.step === step,
  );
  if (!found)
    throw notFound(`the ${step} output of ${source.name} is gone: upload the file again`, 'resource_id');
  return found;
}

/**
 * Stores a step's output as the derived resource of (source, step), replacing the last one,
 * under the name and format the pipeline declares; its `wasGeneratedBy` is the service operation
 * that does the same, as the original records it (research §1.8: the annotate and rdf URLs; the
 * original leaves the joined graph without one, labld names createrdf).
 */
async function store(deps: StepDeps, source: Resource, step: ChainStep, output: StepOutput, from: string) {
  const makes = stepEntry(step).makes;
  if (!makes) throw new Error(`the pipeline's ${step} step makes no resource`);
  const name = outputName(makes, fileName(source));
  return deps.store.upsertDerived(
    { package_id: source.package_id, source_resource_id: source.id, step },
    {
      name: name.name,
      url: name.name,
      url_type: 'upload',
      size: deps.blobs.size(output.blob),
      hash: output.blob,
      blob_key: output.blob,
      mimetype: output.contentType,
      format: name.format,
      hadPrimarySource: from,
      ...(makes.generatedBy ? { wasGeneratedBy: `${deps.siteUrl}${makes.generatedBy}` } : {}),
    },
  );
}

const annotate = async ({ deps, event, source: given, signal, onProgress }: StepWork) => {
  const source = given.url_type === 'link' ? await linkedFile(deps, given, signal) : given;
  const csv = fileOf(deps, source, 'resource_id');
  const { descriptor, summary } = await annotateStep(
    { csv },
    { blobs: deps.blobs, ...settings(deps), onProgress },
  );
  await store(deps, source, 'annotate', descriptor, csv.url);
  return { summary, next: onward('annotate', event) };
};

/** Rows of a table whose preview indexes may be made after the import's result (tens of ms). */
const INDEX_LATER_ROWS = 50_000;

const load = async ({ deps, event, source, onProgress, later }: StepWork) => {
  const started = performance.now();
  const csv = fileOf(deps, source, 'resource_id');
  const descriptor = fileOf(deps, await derived(deps, source, DESCRIPTOR_STEP), 'descriptor');
  const parsed: unknown = JSON.parse(await readText(deps.blobs.open(descriptor.blob, 'descriptor')));
  count('parse.json');
  // Replaces the table of an earlier run (importCsv drops it first).
  const info = await importCsv(
    deps.datastore,
    source.id,
    parsed,
    { body: deps.blobs.open(csv.blob) },
    csv.url,
    { onRows: (rows) => onProgress({ rows }), lines: () => countLines(deps.blobs.open(csv.blob)) },
  );
  // The preview's sorts and filters then read indexes made here, not at a reader's first click.
  // A small table's in a worker after the step's result, while describe runs (~50 ms of a 1 MB
  // CSV's chain); a large one's within the step, as the worker is nobody's meanwhile (the pool
  // counts it as no step's work). Lost to a crash or a delete, a reader's first sort makes them.
  const index = () => deps.datastore.indexForPreview(source.id);
  if (later && info.count <= INDEX_LATER_ROWS) later(index);
  else await index();
  const summary = {
    durationMs: Math.round(performance.now() - started),
    rows: info.count,
    // The rows are a count of the summary already (shown as "N rows"); the note says the rest.
    note: `${info.fields.length} column(s)`,
  };
  return { summary, next: onward('import', event) };
};

const describe = async ({ deps, event, source, signal, onProgress }: StepWork) => {
  const csv = fileOf(deps, source, 'resource_id');
  const descriptor = fileOf(deps, await derived(deps, source, DESCRIPTOR_STEP), 'descriptor');
  const { turtle, summary } = await describeStep(
    { descriptor, csv },
    { blobs: deps.blobs, ...settings(deps), signal, onProgress },
  );
  await store(deps, source, 'describe', turtle, descriptor.url);
  return { summary, next: onward('describe', event) };
};

/** Every YAML resource of the datasets in the mapping group, in library order (dataset name, position). */
async function library(deps: StepDeps): Promise<(MappingEntry & { resource_id: string })[]> {
  const shelves = await libraryShelves(deps.store, { includePrivateFor: 'all' });
  return shelves.flatMap(({ mappings }) =>
    mappings.map((r) => ({
      name: r.name,
      url: downloadUrl(deps.siteUrl, r),
      blob: r.blob_key!,
      resource_id: r.id,
    })),
  );
}

const select = async ({ deps, event, source, signal }: StepWork) => {
  const descriptor = fileOf(deps, await derived(deps, source, DESCRIPTOR_STEP), 'descriptor');
  const entries = await library(deps);
  const { selection, summary } = await selectMapping(
    { descriptor, library: entries, strategy: mappingStrategy() },
    { blobs: deps.blobs, signal },
  );
  const ranked = { ...summary, ranking: selection.ranking };
  const winner = selection.selected && entries.find((e) => e.url === selection.selected!.url);
  // Nothing fits: the source waits for the library (a mapping saved there selects again).
  if (!winner) return { summary: ranked, ends: NEEDS_MAPPING };
  const mapping = { name: winner.name, url: winner.url, resource_id: winner.resource_id };
  return {
    summary: { ...ranked, mapping },
    next: onward('select-mapping', event, { mapping }),
  };
};

const convert = async ({ deps, event, source, signal }: StepWork) => {
  if (!event.mapping) throw invalid('the event names no mapping', 'mapping');
  const mappingResource = await deps.store.getResource(event.mapping.resource_id);
  if (!mappingResource?.blob_key) {
    throw notFound(
      `the mapping ${event.mapping.name} is gone from the group mappings: press Retry`,
      'mapping',
    );
  }
  const csv = fileOf(deps, source, 'resource_id');
  const descriptor = fileOf(deps, await derived(deps, source, DESCRIPTOR_STEP), 'descriptor');
  const mapping = { name: event.mapping.name, url: event.mapping.url, blob: mappingResource.blob_key };
  // A mapping's template is read from where the mapping says: from this catalogue with the
  // source owner's rights when it names one of its resources, else through the guarded fetch.
  const catalogue = await ownersFiles(deps, source);
  const load = textLoader({
    blobs: deps.blobs,
    policy: policyFromEnv(),
    signal,
    cache: deps.documents,
    catalogue,
  });
  const { joined, summary } = await convertStep(
    { descriptor, csv, mapping },
    { blobs: deps.blobs, ...settings(deps), signal, load },
  );
  await store(deps, source, 'convert', joined, descriptor.url);
  return {
    summary,
    next: onward('convert', event, { mapping: event.mapping }),
    loadDataset: setting('LABLD_TRIPLESTORE_AUTOLOAD') === 'true',
  };
};

/** The joined graph against the shapes beside its mapping in the library (lib/chain/validate.ts). */
const validate = async ({ deps, event, source, signal }: StepWork) => {
  if (!event.mapping) throw invalid('the event names no mapping', 'mapping');
  const joined = fileOf(deps, await derived(deps, source, 'convert'), 'resource_id');
  const mapping = await deps.store.getResource(event.mapping.resource_id);
  const shapesName = shapesNameFor(event.mapping.name);
  const shapes = mapping
    ? (await deps.store.listResources(mapping.package_id)).find((r) => r.name === shapesName && r.blob_key)
    : undefined;
  const { report, summary } = await validateStep(
    { joined, csvName: fileName(source), ...(shapes ? { shapes: fileOf(deps, shapes, 'shapes') } : {}) },
    { blobs: deps.blobs, ...settings(deps), signal },
  );
  if (report) await store(deps, source, 'validate', report, joined.url);
  return { summary, next: onward('validate', event) };
};

/**
 * The step after `step` in the pipeline, with its event: the same source and run, and what the
 * step hands on (select-mapping: the mapping convert runs); none where the chain ends.
 */
function onward(step: ChainStep, event: StepWork['event'], carry: Pick<ChainEvent, 'mapping'> = {}) {
  const next = stepEntry(step).next as ChainStep | undefined;
  if (next === undefined) return undefined;
  const { dataset_id, resource_id, run } = event;
  return { step: next, group: groupOfStep(next), event: { dataset_id, resource_id, run, ...carry } };
}

/** resource.deleted: whatever a step still in flight wrote after the delete goes too. */
const forget: ChainConsumer = {
  group: 'chain-forget',
  handle: async (deps, event) => {
    await forgotten(deps, event.resource_id);
  },
};

/**
 * Selection stores nothing: a replay of the group chooses again (the library may have a new
 * mapping), and convert runs again only for a source whose chosen mapping is another one.
 */
const chooseAgain: RunAgain = {
  changed: (before, after) => before.mapping?.resource_id !== after.mapping?.resource_id,
};

/** Each step's work: one per step of the pipeline (the worker threads look it up here). */
const WORK: { [S in ChainStep]: (input: StepWork) => Promise<StepResult> } = {
  annotate,
  import: load,
  describe,
  'select-mapping': select,
  convert,
  validate,
};

/** A step's work and how it runs (a selecting step runs again on a replay: RunAgain). */
export function stepWork(step: ChainStep): {
  work: (input: StepWork) => Promise<StepResult>;
  again?: RunAgain;
} {
  return { work: WORK[step], ...(stepEntry(step).selects ? { again: chooseAgain } : {}) };
}

const stepConsumer = (step: ChainStep): ChainConsumer => {
  const { work, again } = stepWork(step);
  const group = groupOfStep(step);
  return {
    group,
    handle: (deps: ChainDeps, event, signal) =>
      runStep(
        deps,
        step,
        event,
        signal,
        (input) => (deps.offload ? deps.offload(group, event, signal, input.source) : work(input)),
        again,
      ),
  };
};

/** The chain's consumers in chain order, then the collectors of their dead letters. */
export const CHAIN_CONSUMERS: readonly ChainConsumer[] = [
  ...PIPELINE.map((s) => stepConsumer(s.step)),
  forget,
  ...DEAD_LETTER_COLLECTORS,
];
