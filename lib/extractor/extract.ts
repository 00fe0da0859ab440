// What each endpoint asks openBIS for (research §3.4) and the record it makes of the answer.
// Unknown ids are a not-found naming the field, for every kind (the original answered 500 for
// unknown projects and spaces); openBIS answers "get" calls with an empty map for those.
import { invalid, notFound } from '../process/errors.ts';
import { encodeJackson, type Json } from './openbis/jackson.ts';
import { ID_TYPES, idDto, type Dto, type OpenbisClient } from './openbis/client.ts';
import {
  classRecord,
  dataSetRecord,
  distributionRecord,
  entityRecord,
  instanceRecord,
  searchRecord,
} from './records/build.ts';
import type { RecordGraph } from './records/graph.ts';
import type { RecordIris } from './records/iris.ts';

export type RecordRequest =
  | {
      kind: 'object' | 'dataset' | 'collection' | 'project' | 'space' | 'user' | 'class' | 'object_property';
      id: string;
    }
  | { kind: 'distribution'; id: string; path: string }
  | { kind: 'instance' }
  | { kind: 'search'; query: string };

export interface Extracted {
  graph: RecordGraph;
  /** What openBIS answered, in its own (Jackson) form: the `application/json` representation. */
  raw: Json;
}

const MAX_ID = 255;
const MAX_QUERY = 500;

function checkId(id: string, field: string): string {
  const trimmed = id.trim();
  if (trimmed === '') throw invalid(`${field}: must not be empty`, field);
  if (trimmed.length > MAX_ID) throw invalid(`${field}: longer than ${MAX_ID} characters`, field);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(trimmed)) throw invalid(`${field}: contains control characters`, field);
  return trimmed;
}

/** A data-set file path: relative, no `..` or empty segments (it names a ZIP entry too). */
export function checkFilePath(path: string, field = 'path'): string {
  if (path === '' || path.length > 4096) throw invalid(`${field}: must be 1 to 4096 characters`, field);
  const parts = path.split('/');
  if (path.startsWith('/') || parts.some((p) => p === '..' || p === '.' || p === '')) {
    throw invalid(`${field}: must be a relative path without '.', '..' or empty segments`, field);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(path))
    throw invalid(`${field}: contains control characters or a backslash`, field);
  return path;
}

/** An identifier as openBIS writes it: upper case, one leading slash (a path gives none). */
const identifier = (id: string): string => `/${id.toUpperCase().split('/').filter(Boolean).join('/')}`;

/**
 * A sample id: a permId, or an identifier (it contains `/`, upper-cased as openBIS keeps
 * them). ELN identifiers with a collection segment (/SPACE/PROJECT/COLLECTION/CODE) are looked
 * up without it, as openBIS's sample identifiers have no collection.
 */
function sampleId(id: string): Dto {
  if (!id.includes('/')) return idDto(ID_TYPES.sample, id);
  const parts = identifier(id).split('/').slice(1);
  const full = parts.length === 4 ? `/${parts[0]}/${parts[1]}/${parts[3]}` : `/${parts.join('/')}`;
  return idDto(ID_TYPES.sampleIdentifier, full);
}

const byPermOrIdentifier = (id: string, perm: string, ident: string): Dto =>
  id.includes('/') ? idDto(ident as never, identifier(id)) : idDto(perm as never, id);

async function one(
  client: OpenbisClient,
  token: string,
  method: Parameters<OpenbisClient['getOne']>[0],
  id: Dto,
  what: string,
  field: string,
  shown: string,
): Promise<Dto> {
  const found = await client.getOne(method, token, id);
  if (found === undefined)
    throw notFound(`${field}: ${what} ${shown} not found (or not visible to this openBIS user)`, field);
  return found;
}

/** A data set and its file listing from its data store. */
export async function dataSetWithFiles(
  client: OpenbisClient,
  token: string,
  id: string,
): Promise<{ dataSet: Dto; files: Dto[] }> {
  const dataSet = await one(
    client,
    token,
    'getDataSets',
    idDto(ID_TYPES.dataSet, id),
    'dataset',
    'perm_id',
    id,
  );
  let storeUrl = storeUrlOf(dataSet['dataStore']);
  if (storeUrl === undefined) {
    const code = isDto(dataSet['dataStore']) ? dataSet['dataStore']['code'] : undefined;
    const stores = await client.searchDataStores(token);
    storeUrl = storeUrlOf(stores.find((s) => s['code'] === code) ?? stores[0]);
  }
  const files = storeUrl === undefined ? [] : await client.searchFiles(storeUrl, token, id);
  return { dataSet, files };
}

const isDto = (v: unknown): v is Dto => typeof v === 'object' && v !== null && !Array.isArray(v);

export function storeUrlOf(store: Json | undefined): string | undefined {
  if (!isDto(store)) return undefined;
  const url = store['downloadUrl'] ?? store['remoteUrl'];
  return typeof url === 'string' && URL.canParse(url) ? url : undefined;
}

/** The record a request asks for, and openBIS's own answer it was made from. */
export async function extract(
  client: OpenbisClient,
  token: string,
  iris: RecordIris,
  request: RecordRequest,
): Promise<Extracted> {
  switch (request.kind) {
    case 'object': {
      const id = checkId(request.id, 'perm_id');
      const sample = await one(client, token, 'getSamples', sampleId(id), 'object', 'perm_id', id);
      return { graph: entityRecord(iris, sample), raw: encodeJackson(sample) };
    }
    case 'collection': {
      const id = checkId(request.id, 'perm_id');
      const dto = byPermOrIdentifier(id, ID_TYPES.experiment, ID_TYPES.experimentIdentifier);
      const experiment = await one(client, token, 'getExperiments', dto, 'collection', 'perm_id', id);
      return { graph: entityRecord(iris, experiment), raw: encodeJackson(experiment) };
    }
    case 'project': {
      const id = checkId(request.id, 'perm_id');
      const dto = byPermOrIdentifier(id, ID_TYPES.project, ID_TYPES.projectIdentifier);
      const project = await one(client, token, 'getProjects', dto, 'project', 'perm_id', id);
      return { graph: entityRecord(iris, project), raw: encodeJackson(project) };
    }
    case 'space': {
      const id = checkId(request.id, 'perm_id');
      const space = await one(client, token, 'getSpaces', idDto(ID_TYPES.space, id), 'space', 'perm_id', id);
      return { graph: entityRecord(iris, space), raw: encodeJackson(space) };
    }
    case 'user': {
      const id = checkId(request.id, 'user_id');
      const person = await one(
        client,
        token,
        'getPersons',
        idDto(ID_TYPES.person, id),
        'user',
        'user_id',
        id,
      );
      return { graph: entityRecord(iris, person), raw: encodeJackson(person) };
    }
    case 'dataset': {
      const { dataSet, files } = await dataSetWithFiles(client, token, checkId(request.id, 'perm_id'));
      return {
        graph: dataSetRecord(iris, dataSet, files),
        raw: encodeJackson({
          ...dataSet,
          files: { '@type': 'as.dto.common.search.SearchResult', objects: files, totalCount: files.length },
        }),
      };
    }
    case 'distribution': {
      const path = checkFilePath(request.path);
      const { dataSet, files } = await dataSetWithFiles(client, token, checkId(request.id, 'perm_id'));
      const graph = distributionRecord(iris, dataSet, files, path);
      if (graph === undefined) throw notFound(`path: dataset ${request.id} has no file ${path}`, 'path');
      return { graph, raw: encodeJackson(files.find((f) => f['path'] === path) ?? null) };
    }
    case 'class': {
      const code = checkId(request.id, 'object_type_code');
      for (const [method, entityKind] of [
        ['getSampleTypes', 'SAMPLE'],
        ['getExperimentTypes', 'EXPERIMENT'],
        ['getDataSetTypes', 'DATA_SET'],
      ] as const) {
        const type = await client.getOne(method, token, idDto(ID_TYPES.entityType, code, entityKind));
        if (type !== undefined) return { graph: classRecord(iris, type), raw: encodeJackson(type) };
      }
      throw notFound(`object_type_code: type ${code} not found`, 'object_type_code');
    }
    case 'object_property': {
      const code = checkId(request.id, 'property_type_code').toUpperCase();
      const candidates = code.startsWith('$') ? [code] : [code, `$${code}`];
      for (const candidate of candidates) {
        const type = await client.getOne('getPropertyTypes', token, idDto(ID_TYPES.propertyType, candidate));
        if (type !== undefined) return { graph: entityRecord(iris, type), raw: encodeJackson(type) };
      }
      throw notFound(`property_type_code: property type ${code} not found`, 'property_type_code');
    }
    case 'instance': {
      const spaces = await client.searchSpaces(token);
      return { graph: instanceRecord(iris, spaces), raw: encodeJackson(spaces) };
    }
    case 'search': {
      const query = request.query.trim();
      if (query === '') throw invalid('query: must not be empty', 'query');
      if (query.length > MAX_QUERY) throw invalid(`query: longer than ${MAX_QUERY} characters`, 'query');
      const hits = await client.searchGlobally(token, query);
      return { graph: searchRecord(iris, query, hits), raw: encodeJackson(hits) };
    }
  }
}

/** The data set and file behind a distribution, for streaming its bytes. */
export async function distributionSource(
  client: OpenbisClient,
  token: string,
  id: string,
  path: string,
): Promise<{ storeUrl: string; size: number | undefined }> {
  checkFilePath(path);
  const { dataSet, files } = await dataSetWithFiles(client, token, checkId(id, 'perm_id'));
  const file = files.find((f) => f['path'] === path && f['directory'] !== true);
  if (file === undefined) throw notFound(`path: dataset ${id} has no file ${path}`, 'path');
  const storeUrl = storeUrlOf(dataSet['dataStore']) ?? storeUrlOf(file['dataStore']);
  if (storeUrl === undefined)
    throw notFound(`path: the data store of dataset ${id} has no download URL`, 'path');
  return { storeUrl, size: typeof file['fileLength'] === 'number' ? file['fileLength'] : undefined };
}
