// The chain's steps as consumers: each reads what its step needs from the catalogue (the source
// and what was derived from it), calls the step's domain function (lib/chain, lib/datastore)
// and stores the output as the derived resource of (source, step). consumers/chain.ts does the
// status bookkeeping and the events.
import { text as readText } from 'node:stream/consumers';
import {
  annotateStep,
  convertStep,
  describeStep,
  derivedNames,
  mappingStrategy,
  NEEDS_MAPPING,
  selectMapping,
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
  type RunAgain,
  type ChainDeps,
  type StepDeps,
  type StepResult,
  type StepWork,
} from './chain.ts';
import { setting } from '../lib/process/config.ts';
import { libraryShelves } from '../lib/catalogue/mapping-library.ts';
import { count } from '../lib/process/counters.ts';

/** The derivation step keys of the outputs (a source has one of each). */
const OUTPUT = { descriptor: 'annotate', turtle: 'describe', joined: 'convert' } as const;

/**
 * The service operation each step does, recorded as the derived resource's `wasGeneratedBy` as
 * the original records it (research §1.8: the annotate and rdf URLs; the original leaves the
 * joined graph without one, labld names createrdf).
 */
const GENERATED_BY = {
  annotate: '/annotator/api/annotate',
  describe: '/annotator/api/rdf',
  convert: '/converter/api/createrdf',
} as const;

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

/** Stores a step's output as the derived resource of (source, step), replacing the last one. */
async function store(deps: StepDeps, source: Resource, step: string, output: StepOutput, from: string) {
  const kind = step === OUTPUT.descriptor ? 'descriptor' : step === OUTPUT.turtle ? 'turtle' : 'joined';
  const name = derivedNames(fileName(source))[kind];
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
      wasGeneratedBy: `${deps.siteUrl}${GENERATED_BY[step as keyof typeof GENERATED_BY]}`,
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
  await store(deps, source, OUTPUT.descriptor, descriptor, csv.url);
  return { summary, next: { step: 'import' as const, group: 'chain-import', event: stepEvent(event) } };
};

const load = async ({ deps, event, source, onProgress }: StepWork) => {
  const started = performance.now();
  const csv = fileOf(deps, source, 'resource_id');
  const descriptor = fileOf(deps, await derived(deps, source, OUTPUT.descriptor), 'descriptor');
  const parsed: unknown = JSON.parse(await readText(deps.blobs.open(descriptor.blob, 'descriptor')));
  count('parse.json');
  // Replaces the table of an earlier run (importCsv drops it first).
  const info = await importCsv(
    deps.datastore,
    source.id,
    parsed,
    { body: deps.blobs.open(csv.blob) },
    csv.url,
    { onRows: (rows) => onProgress({ rows }) },
  );
  const summary = {
    durationMs: Math.round(performance.now() - started),
    rows: info.count,
    // The rows are a count of the summary already (shown as "N rows"); the note says the rest.
    note: `${info.fields.length} column(s)`,
  };
  return { summary, next: { step: 'describe' as const, group: 'chain-describe', event: stepEvent(event) } };
};

const describe = async ({ deps, event, source, signal, onProgress }: StepWork) => {
  const csv = fileOf(deps, source, 'resource_id');
  const descriptor = fileOf(deps, await derived(deps, source, OUTPUT.descriptor), 'descriptor');
  const { turtle, summary } = await describeStep(
    { descriptor, csv },
    { blobs: deps.blobs, ...settings(deps), signal, onProgress },
  );
  await store(deps, source, OUTPUT.turtle, turtle, descriptor.url);
  return {
    summary,
    next: { step: 'select-mapping' as const, group: 'chain-select-mapping', event: stepEvent(event) },
  };
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
  const descriptor = fileOf(deps, await derived(deps, source, OUTPUT.descriptor), 'descriptor');
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
    next: { step: 'convert' as const, group: 'chain-convert', event: { ...stepEvent(event), mapping } },
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
  const descriptor = fileOf(deps, await derived(deps, source, OUTPUT.descriptor), 'descriptor');
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
  await store(deps, source, OUTPUT.joined, joined, descriptor.url);
  return { summary, loadDataset: setting('LABLD_TRIPLESTORE_AUTOLOAD') === 'true' };
};

/** The next step's event: the same source and run (a mapping only where convert needs one). */
const stepEvent = (event: StepWork['event']) => ({
  dataset_id: event.dataset_id,
  resource_id: event.resource_id,
  run: event.run,
});

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

/** Each step's work, by the consumer group that runs it (the worker threads look it up here). */
export const STEP_WORK: Record<
  string,
  { step: ChainStep; work: (input: StepWork) => Promise<StepResult>; again?: RunAgain }
> = {
  'chain-annotate': { step: 'annotate', work: annotate },
  'chain-import': { step: 'import', work: load },
  'chain-describe': { step: 'describe', work: describe },
  'chain-select-mapping': { step: 'select-mapping', work: select, again: chooseAgain },
  'chain-convert': { step: 'convert', work: convert },
};

const stepConsumer = (group: string): ChainConsumer => {
  const { step, work, again } = STEP_WORK[group]!;
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
  ...Object.keys(STEP_WORK).map(stepConsumer),
  forget,
  ...DEAD_LETTER_COLLECTORS,
];
