// POST /export_bundle: a selection of records (the original UI's `{"graph": "<JSON-LD>"}`, or a
// plain list of record IRIs) → a ZIP with every selected file under `<datasetPermId>/<path>`
// and a valid RO-Crate 1.1 `ro-crate-metadata.json`, streamed into the blob store file by
// file (as a growing blob the gateway serves while it is written: lib/blobs/growing.ts). Files are found through openBIS with the caller's session, never through URLs in the
// client's graph (the original downloaded from the graph's data-store URLs, behind a host
// check). A file that cannot be fetched is named in the crate and in the reply.
import type { Readable } from 'node:stream';
import archiver from 'archiver';
import type { BlobStore } from '../blobs/blob-store.ts';
import { storeDownloadStream, type Download } from '../blobs/download.ts';
import { intSetting } from '../process/config.ts';
import { DomainError, invalid, tooLarge } from '../process/errors.ts';
import { UpstreamError } from '../fetch/errors.ts';
import { parse } from '../rdf/index.ts';
import { crateMetadata, entryName, type CrateDataSet, type CrateFile } from './crate.ts';
import { dataSetWithFiles } from './extract.ts';
import { ID_TYPES, idDto, type Dto, type OpenbisClient } from './openbis/client.ts';
import { idValue } from './records/entities.ts';
import type { RecordIris, RecordKind } from './records/iris.ts';
import { mediaTypeOf } from './records/media-types.ts';
import { term } from './records/vocab.ts';

const BUNDLED: readonly RecordKind[] = ['dataset', 'distribution', 'object', 'collection'];
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

export interface BundleEnv {
  client: OpenbisClient;
  session: string;
  iris: RecordIris;
  blobs: BlobStore;
  signal: AbortSignal;
  /** The gateway's growing-blob id: the ZIP is served while it is written (lib/blobs/growing.ts). */
  growing?: string | undefined;
}

/** What a bundle is served as. */
export const BUNDLE_FILE = { contentType: 'application/zip', filename: 'openbis-export.zip' };

export interface BundleDownload extends Download {
  /** `<permId>/<path>` of every file that could not be fetched (also named in the crate). */
  missing: string[];
}

type Selected = { iri: string; kind: RecordKind; id: string; path?: string | undefined };

function limit(count: number): void {
  const max = intSetting('LABLD_EXTRACTOR_MAX_RECORDS');
  if (count > max) {
    throw tooLarge(
      `iris: ${count} records selected; a bundle takes at most ${max} (LABLD_EXTRACTOR_MAX_RECORDS)`,
      'iris',
    );
  }
}

/**
 * Why a file is not in the bundle, in words that name no address: the data store is openBIS's
 * inside, and a fetch error's text carries its URL, a redirect's target or a resolved IP.
 */
export function missingReason(error: DomainError): string {
  if (error instanceof UpstreamError) return `the data store answered ${error.upstreamStatus}`;
  switch (error.kind) {
    case 'upstream-timeout':
      return 'the data store did not answer in time';
    case 'too-large':
      return 'larger than the fetch limit (LABLD_FETCH_MAX_BYTES)';
    case 'forbidden':
    case 'malformed':
      return "the data store's address is refused by the fetch policy";
    default:
      return 'the data store could not be reached';
  }
}

/** The records a list of IRIs names: each must be a bundled kind under {extractor_url}/. */
export function selectIris(iris: RecordIris, list: readonly string[]): Selected[] {
  limit(list.length);
  return list.map((iri) => {
    const named = iris.parse(iri);
    if (named === undefined)
      throw invalid(`iris: ${iri.slice(0, 300)} is not a record of this extractor (${iris.ns}…)`, 'iris');
    if (!BUNDLED.includes(named.kind)) {
      throw invalid(
        `iris: ${iri.slice(0, 300)} is a ${named.kind} record; a bundle takes ${BUNDLED.join(', ')}`,
        'iris',
      );
    }
    return { iri, ...named };
  });
}

/** The records a JSON-LD graph selects: its data sets and distributions (what the UI shows as files). */
export async function selectGraph(iris: RecordIris, graph: string): Promise<Selected[]> {
  let quads;
  try {
    quads = await parse(graph, 'json-ld');
  } catch (error) {
    if (error instanceof DomainError)
      throw invalid(`graph: not a JSON-LD document: ${error.message}`, 'graph');
    throw error;
  }
  const wanted = new Set([term('dcat', 'Dataset'), term('dcat', 'Distribution')]);
  const subjects = new Set<string>();
  for (const q of quads) {
    if (q.subject.termType === 'NamedNode' && q.predicate.value === RDF_TYPE && wanted.has(q.object.value)) {
      subjects.add(q.subject.value);
    }
  }
  const selected = [...subjects].flatMap((iri) => {
    const named = iris.parse(iri);
    return named && BUNDLED.includes(named.kind) ? [{ iri, ...named }] : [];
  });
  if (selected.length === 0) {
    throw invalid(`graph: names no data set or distribution record of this extractor (${iris.ns}…)`, 'graph');
  }
  limit(selected.length);
  return selected;
}

/** The registrator of a data set as the crate's author: their user record and name. */
function authorOf(iris: RecordIris, person: Dto[string] | undefined): Pick<CrateDataSet, 'author'> {
  if (typeof person !== 'object' || person === null || Array.isArray(person)) return {};
  const userId = person['userId'];
  if (typeof userId !== 'string' || userId === '') return {};
  const name = [person['firstName'], person['lastName']].filter((n) => typeof n === 'string' && n !== '');
  return { author: { id: iris.of('user', userId), name: name.length > 0 ? name.join(' ') : userId } };
}

interface Planned {
  dataSets: Map<string, CrateDataSet & { storeUrl: string | undefined }>;
  files: Map<string, CrateFile & { storeUrl: string | undefined }>;
}

/** Every file the selection reaches, through openBIS: objects and collections by their data sets. */
async function plan(env: BundleEnv, selected: Selected[]): Promise<Planned> {
  const planned: Planned = { dataSets: new Map(), files: new Map() };
  const addDataSet = async (permId: string, onlyPath?: string) => {
    const { dataSet, files } = await dataSetWithFiles(env.client, env.session, permId);
    const store = dataSet['dataStore'] as Dto | undefined;
    const storeUrl = typeof store?.['downloadUrl'] === 'string' ? store['downloadUrl'] : undefined;
    const record = env.iris.of('dataset', permId);
    planned.dataSets.set(permId, {
      permId,
      record,
      name: `data set ${permId}`,
      storeUrl,
      ...authorOf(env.iris, dataSet['registrator']),
    });
    let found = false;
    for (const file of files) {
      const path = file['path'];
      if (typeof path !== 'string' || path === '' || file['directory'] === true) continue;
      if (onlyPath !== undefined && path !== onlyPath) continue;
      found = true;
      const size = typeof file['fileLength'] === 'number' ? file['fileLength'] : undefined;
      planned.files.set(entryName(permId, path), {
        dataSetPermId: permId,
        path,
        size,
        encodingFormat: mediaTypeOf(path),
        record: env.iris.distribution(permId, path),
        downloadUrl: env.iris.download(permId, path),
        storeUrl,
      });
    }
    if (onlyPath !== undefined && !found)
      throw invalid(`iris: dataset ${permId} has no file ${onlyPath}`, 'iris');
  };
  const dataSetsOf = (dto: Dto | undefined, what: string, id: string): string[] => {
    if (dto === undefined)
      throw invalid(`iris: ${what} ${id} not found (or not visible to this openBIS user)`, 'iris');
    const list = dto['dataSets'];
    return Array.isArray(list) ? list.flatMap((d) => idValue((d as Dto)['permId']) ?? []) : [];
  };
  for (const s of selected) {
    env.signal.throwIfAborted();
    if (s.kind === 'dataset') await addDataSet(s.id);
    else if (s.kind === 'distribution') await addDataSet(s.id, s.path);
    else if (s.kind === 'object') {
      const sample = await env.client.getOne('getSamples', env.session, idDto(ID_TYPES.sample, s.id));
      for (const permId of dataSetsOf(sample, 'object', s.id)) await addDataSet(permId);
    } else if (s.kind === 'collection') {
      const experiment = await env.client.getOne(
        'getExperiments',
        env.session,
        idDto(ID_TYPES.experiment, s.id),
      );
      for (const permId of dataSetsOf(experiment, 'collection', s.id)) await addDataSet(permId);
    }
  }
  return planned;
}

/** The bundle, stored: files fetched one at a time into the ZIP as they stream. */
export async function exportBundle(
  env: BundleEnv,
  input: { graph?: string | undefined; iris?: string[] | undefined },
): Promise<BundleDownload> {
  if (input.graph !== undefined && input.iris !== undefined)
    throw invalid('graph: send either graph or iris, not both', 'graph');
  let selected: Selected[];
  if (input.graph !== undefined) selected = await selectGraph(env.iris, input.graph);
  else if (input.iris !== undefined && input.iris.length > 0) selected = selectIris(env.iris, input.iris);
  else
    throw invalid(
      'iris: the selection is empty: send {"graph": "<JSON-LD>"} or a list of record IRIs',
      'iris',
    );
  const startTime = new Date();
  const planned = await plan(env, selected);

  // Level 1: lab files are often compressed already, and the bundle's speed is deflate's.
  const zip = archiver('zip', { zlib: { level: 1 } });
  const { contentType, filename } = BUNDLE_FILE;
  const stored = storeDownloadStream(env.blobs, zip, contentType, filename, {
    signal: env.signal,
    growing: env.growing,
  });
  // The store reads the archive as it is written; a failure on either side stops both.
  stored.catch(() => zip.abort());
  const missing: string[] = [];
  try {
    for (const [name, file] of planned.files) {
      env.signal.throwIfAborted();
      if (file.storeUrl === undefined) {
        file.missing = 'its data store has no download URL';
      } else {
        // A file that cannot be fetched is named; one that fails while it is written breaks the ZIP.
        const source = await env.client
          .download(file.storeUrl, env.session, file.dataSetPermId, file.path)
          .catch((error: unknown) => {
            if (!(error instanceof DomainError)) throw error;
            file.missing = missingReason(error);
            return undefined;
          });
        if (source !== undefined) await appendEntry(zip, source.body, name);
      }
      if (file.missing !== undefined) missing.push(name);
    }
    const metadata = crateMetadata({
      service: env.iris.service,
      selected: selected.map((s) => s.iri),
      dataSets: [...planned.dataSets.values()],
      files: [...planned.files.values()],
      startTime,
      endTime: new Date(),
    });
    zip.append(JSON.stringify(metadata, null, 2), { name: 'ro-crate-metadata.json' });
    await zip.finalize();
  } catch (error) {
    // Ends the stream the store reads, so that the store fails too instead of waiting forever.
    zip.abort();
    zip.destroy(error instanceof Error ? error : new Error(String(error)));
    await stored.catch(() => {});
    throw error;
  }
  return { ...(await stored), missing };
}

/** Appends one entry and waits until the archive has written it. */
function appendEntry(zip: ReturnType<typeof archiver>, body: Readable, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onEntry = (entry: { name: string }) => {
      if (entry.name !== name) return;
      zip.off('entry', onEntry);
      zip.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      zip.off('entry', onEntry);
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.once('error', onError);
    body.once('error', onError);
    zip.append(body, { name });
  });
}
