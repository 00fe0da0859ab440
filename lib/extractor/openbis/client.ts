// The openBIS v3 client: JSON-RPC 2.0 over HTTP POST (research §3.8) through the guarded
// fetch, answers decoded from Jackson's back-reference form. The application server lives at
// OPENBIS_URL; a data store at its own `downloadUrl`, reached only when it is on OPENBIS_URL's
// host (or the fetch policy allows it otherwise). Session tokens travel in the call's params,
// never in a URL we log, and no error text quotes them.
import { randomUUID } from 'node:crypto';
import { guardedFetch, parseAllowList, policyFromEnv, type FetchPolicy } from '../../fetch/guarded-fetch.ts';
import type { FetchedResource } from '../../fetch/guarded-fetch.ts';
import { UpstreamError } from '../../fetch/errors.ts';
import { DomainError, invalid, unauthorized } from '../../process/errors.ts';
import { setting } from '../../process/config.ts';
import { decodeJackson, type Json } from './jackson.ts';
import { isObject as isJsonObject } from '../../json.ts';

export const AS_PATH = '/openbis/openbis/rmi-application-server-v3.json';
export const DSS_PATH = '/datastore_server/rmi-data-store-server-v3.json';

const FIELD = 'OPENBIS_URL';

export type Dto = Record<string, Json>;

/** The id DTOs of the v3 API, by the kind of entity they name. */
export const ID_TYPES = {
  sample: 'as.dto.sample.id.SamplePermId',
  sampleIdentifier: 'as.dto.sample.id.SampleIdentifier',
  experiment: 'as.dto.experiment.id.ExperimentPermId',
  experimentIdentifier: 'as.dto.experiment.id.ExperimentIdentifier',
  project: 'as.dto.project.id.ProjectPermId',
  projectIdentifier: 'as.dto.project.id.ProjectIdentifier',
  space: 'as.dto.space.id.SpacePermId',
  person: 'as.dto.person.id.PersonPermId',
  dataSet: 'as.dto.dataset.id.DataSetPermId',
  entityType: 'as.dto.entitytype.id.EntityTypePermId',
  propertyType: 'as.dto.property.id.PropertyTypePermId',
} as const;

export type GetMethod =
  | 'getSamples'
  | 'getExperiments'
  | 'getDataSets'
  | 'getProjects'
  | 'getSpaces'
  | 'getPersons'
  | 'getSampleTypes'
  | 'getExperimentTypes'
  | 'getDataSetTypes'
  | 'getPropertyTypes';

/** The fetch-options classes of the V3 API (as pybis and the JavaScript API name them). */
const FO = {
  sample: 'as.dto.sample.fetchoptions.SampleFetchOptions',
  sampleType: 'as.dto.sample.fetchoptions.SampleTypeFetchOptions',
  experiment: 'as.dto.experiment.fetchoptions.ExperimentFetchOptions',
  experimentType: 'as.dto.experiment.fetchoptions.ExperimentTypeFetchOptions',
  dataSet: 'as.dto.dataset.fetchoptions.DataSetFetchOptions',
  dataSetType: 'as.dto.dataset.fetchoptions.DataSetTypeFetchOptions',
  dataStore: 'as.dto.datastore.fetchoptions.DataStoreFetchOptions',
  physicalData: 'as.dto.dataset.fetchoptions.PhysicalDataFetchOptions',
  linkedData: 'as.dto.dataset.fetchoptions.LinkedDataFetchOptions',
  project: 'as.dto.project.fetchoptions.ProjectFetchOptions',
  space: 'as.dto.space.fetchoptions.SpaceFetchOptions',
  person: 'as.dto.person.fetchoptions.PersonFetchOptions',
  roleAssignment: 'as.dto.roleassignment.fetchoptions.RoleAssignmentFetchOptions',
  tag: 'as.dto.tag.fetchoptions.TagFetchOptions',
  attachment: 'as.dto.attachment.fetchoptions.AttachmentFetchOptions',
  properties: 'as.dto.property.fetchoptions.PropertyFetchOptions',
  propertyAssignment: 'as.dto.property.fetchoptions.PropertyAssignmentFetchOptions',
  propertyType: 'as.dto.property.fetchoptions.PropertyTypeFetchOptions',
  vocabulary: 'as.dto.vocabulary.fetchoptions.VocabularyFetchOptions',
  materialType: 'as.dto.material.fetchoptions.MaterialTypeFetchOptions',
  semanticAnnotation: 'as.dto.semanticannotation.fetchoptions.SemanticAnnotationFetchOptions',
} as const;

/**
 * Fetch options: the class, and each relation with the class its field declares (openBIS
 * resolves `@type` among that class's subtypes only, and fills only the relations named).
 */
function fetchOptions(type: string, relations: Record<string, Dto> = {}): Dto {
  return { '@type': type, ...relations };
}

const person = (): Dto => fetchOptions(FO.person);
const entityType = (type: string): Dto => fetchOptions(type);
const typeWithAssignments = (type: string): Dto =>
  fetchOptions(type, {
    propertyAssignments: fetchOptions(FO.propertyAssignment, { propertyType: fetchOptions(FO.propertyType) }),
  });
/** A related entity, as the records name it: its type and where it sits. */
const bareSample = (): Dto => fetchOptions(FO.sample, { type: entityType(FO.sampleType) });
const bareExperiment = (): Dto =>
  fetchOptions(FO.experiment, { type: entityType(FO.experimentType), project: fetchOptions(FO.project) });
const bareDataSet = (): Dto => fetchOptions(FO.dataSet, { type: entityType(FO.dataSetType) });

/** Fetch options of each get: openBIS fills only what is asked for, so the relations are named. */
const FETCH: Record<GetMethod, Dto> = {
  getSamples: fetchOptions(FO.sample, {
    type: entityType(FO.sampleType),
    tags: fetchOptions(FO.tag),
    properties: fetchOptions(FO.properties),
    space: fetchOptions(FO.space),
    project: fetchOptions(FO.project, { space: fetchOptions(FO.space) }),
    experiment: bareExperiment(),
    registrator: person(),
    modifier: person(),
    dataSets: bareDataSet(),
    parents: bareSample(),
    children: bareSample(),
    container: bareSample(),
    components: bareSample(),
    attachments: fetchOptions(FO.attachment),
  }),
  getExperiments: fetchOptions(FO.experiment, {
    type: entityType(FO.experimentType),
    tags: fetchOptions(FO.tag),
    properties: fetchOptions(FO.properties),
    project: fetchOptions(FO.project, { space: fetchOptions(FO.space) }),
    samples: bareSample(),
    dataSets: fetchOptions(FO.dataSet, { type: entityType(FO.dataSetType), sample: bareSample() }),
    registrator: person(),
    modifier: person(),
    attachments: fetchOptions(FO.attachment),
  }),
  getDataSets: fetchOptions(FO.dataSet, {
    type: entityType(FO.dataSetType),
    tags: fetchOptions(FO.tag),
    properties: fetchOptions(FO.properties),
    dataStore: fetchOptions(FO.dataStore),
    physicalData: fetchOptions(FO.physicalData),
    linkedData: fetchOptions(FO.linkedData),
    experiment: bareExperiment(),
    sample: bareSample(),
    registrator: person(),
    modifier: person(),
  }),
  getProjects: fetchOptions(FO.project, {
    space: fetchOptions(FO.space),
    experiments: bareExperiment(),
    registrator: person(),
    modifier: person(),
    attachments: fetchOptions(FO.attachment),
  }),
  getSpaces: fetchOptions(FO.space, {
    registrator: person(),
    projects: fetchOptions(FO.project),
  }),
  getPersons: fetchOptions(FO.person, {
    roleAssignments: fetchOptions(FO.roleAssignment, { space: fetchOptions(FO.space) }),
    space: fetchOptions(FO.space),
  }),
  getSampleTypes: typeWithAssignments(FO.sampleType),
  getExperimentTypes: typeWithAssignments(FO.experimentType),
  getDataSetTypes: typeWithAssignments(FO.dataSetType),
  getPropertyTypes: fetchOptions(FO.propertyType, {
    vocabulary: fetchOptions(FO.vocabulary),
    materialType: fetchOptions(FO.materialType),
    semanticAnnotations: fetchOptions(FO.semanticAnnotation),
    registrator: person(),
  }),
};

export interface OpenbisClientOptions {
  /** OPENBIS_URL; default from the configuration. */
  url?: string;
  policy?: FetchPolicy;
  signal?: AbortSignal;
}

/** OPENBIS_URL, checked: an http(s) URL without credentials or query. */
export function openbisUrl(raw: string = setting('OPENBIS_URL')): URL {
  if (raw === '') throw invalid('OPENBIS_URL is not set: the extractor has no openBIS to read', FIELD);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('OPENBIS_URL is not a URL', FIELD);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('OPENBIS_URL must be http(s)', FIELD);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** The guarded fetch's policy, with the configured openBIS host allowed even if private. */
export function openbisPolicy(base: URL, env: NodeJS.ProcessEnv = process.env): FetchPolicy {
  const policy = policyFromEnv(env);
  const host = base.hostname.replace(/^\[|\]$/g, '');
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  const entry = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return { ...policy, allow: parseAllowList([setting('LABLD_FETCH_ALLOW', env), entry].join(',')) };
}

const isObject = (v: unknown): v is Dto => isJsonObject<Json>(v);

export class OpenbisClient {
  readonly base: URL;
  private readonly policy: FetchPolicy;
  private readonly signal: AbortSignal | undefined;

  /** OPENBIS_URL without a trailing slash. */
  get root(): string {
    return this.base.origin + this.base.pathname.replace(/\/+$/, '');
  }

  constructor(options: OpenbisClientOptions = {}) {
    this.base = openbisUrl(options.url);
    this.policy = options.policy ?? openbisPolicy(this.base);
    this.signal = options.signal;
  }

  /** One JSON-RPC call; `endpoint` is the application server unless a data store's URL is given. */
  async call(method: string, params: Json[], endpoint: string = this.root + AS_PATH): Promise<Json> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
    const answer = await guardedFetch(endpoint, {
      field: FIELD,
      policy: this.policy,
      accept: 'application/json',
      method: 'POST',
      body,
      contentType: 'application/json',
      ...(this.signal ? { signal: this.signal } : {}),
    });
    const text = await answer.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new DomainError(
        'unreachable',
        `openBIS answered ${method} with something that is not JSON`,
        FIELD,
      );
    }
    if (!isObject(parsed))
      throw new DomainError('unreachable', `openBIS answered ${method} with no JSON-RPC object`, FIELD);
    const error = parsed['error'];
    if (error !== undefined && error !== null) {
      const message = isObject(error) && typeof error['message'] === 'string' ? error['message'] : 'an error';
      // openBIS words a dead session this way; it is the caller's credentials, not our fault.
      if (/session|not logged in|authenti/i.test(message)) {
        throw unauthorized('openBIS refused the session: log in again', 'authorization');
      }
      throw new DomainError(
        'unreachable',
        `openBIS answered ${method} with an error: ${message.slice(0, 300)}`,
        FIELD,
      );
    }
    if (!('result' in parsed))
      throw new DomainError('unreachable', `openBIS answered ${method} with no result`, FIELD);
    return decodeJackson(parsed['result'] as Json);
  }

  /** A session token, or null when openBIS refuses the user name and password. */
  async login(user: string, password: string): Promise<string | null> {
    const token = await this.call('login', [user, password]);
    return typeof token === 'string' && token !== '' ? token : null;
  }

  async logout(token: string): Promise<void> {
    await this.call('logout', [token]);
  }

  async isSessionActive(token: string): Promise<boolean> {
    return (await this.call('isSessionActive', [token])) === true;
  }

  async serverInformation(token: string): Promise<Dto> {
    const info = await this.call('getServerInformation', [token]);
    return isObject(info) ? info : {};
  }

  /** A get by ids: the map openBIS answers, keyed by the requested id string (absent: unknown). */
  async get(method: GetMethod, token: string, ids: Dto[]): Promise<Dto> {
    const result = await this.call(method, [token, ids, FETCH[method]]);
    return isObject(result) ? result : {};
  }

  /** The first object of a get for one id, or undefined. */
  async getOne(method: GetMethod, token: string, id: Dto): Promise<Dto | undefined> {
    const found = Object.values(await this.get(method, token, [id]));
    const first = found[0];
    return isObject(first) ? first : undefined;
  }

  async searchSpaces(token: string): Promise<Dto[]> {
    const result = await this.call('searchSpaces', [
      token,
      { '@type': 'as.dto.space.search.SpaceSearchCriteria' },
      FETCH.getSpaces,
    ]);
    return objectsOf(result);
  }

  async searchDataStores(token: string): Promise<Dto[]> {
    const result = await this.call('searchDataStores', [
      token,
      { '@type': 'as.dto.datastore.search.DataStoreSearchCriteria' },
      fetchOptions(FO.dataStore),
    ]);
    return objectsOf(result);
  }

  /** Global text search ("contains"): the hits' GlobalSearchObjects, samples and experiments fetched. */
  async searchGlobally(token: string, text: string): Promise<Dto[]> {
    const criteria = {
      '@type': 'as.dto.global.search.GlobalSearchCriteria',
      operator: 'OR',
      criteria: [
        {
          '@type': 'as.dto.global.search.GlobalSearchTextCriteria',
          fieldValue: { '@type': 'as.dto.common.search.StringContainsValue', value: text },
        },
      ],
    };
    const options = {
      '@type': 'as.dto.global.fetchoptions.GlobalSearchObjectFetchOptions',
      sample: FETCH.getSamples,
      experiment: FETCH.getExperiments,
    };
    return objectsOf(await this.call('searchGlobally', [token, criteria, options]));
  }

  /** The data store's file listing of a data set (directories included). */
  async searchFiles(dataStoreUrl: string, token: string, dataSetPermId: string): Promise<Dto[]> {
    const criteria = {
      '@type': 'dss.dto.datasetfile.search.DataSetFileSearchCriteria',
      criteria: [
        {
          '@type': 'as.dto.dataset.search.DataSetSearchCriteria',
          criteria: [
            {
              '@type': 'as.dto.common.search.CodeSearchCriteria',
              fieldValue: { '@type': 'as.dto.common.search.StringEqualToValue', value: dataSetPermId },
            },
          ],
        },
      ],
    };
    const options = { '@type': 'dss.dto.datasetfile.fetchoptions.DataSetFileFetchOptions' };
    return objectsOf(
      await this.call('searchFiles', [token, criteria, options], dataStoreUrl.replace(/\/+$/, '') + DSS_PATH),
    );
  }

  /** A file's bytes from the data store, streamed (the fetch policy's size and time limits apply). */
  async download(
    dataStoreUrl: string,
    token: string,
    dataSetPermId: string,
    path: string,
  ): Promise<FetchedResource> {
    const file = path.split('/').map(encodeURIComponent).join('/');
    const url = `${dataStoreUrl.replace(/\/+$/, '')}/datastore_server/${encodeURIComponent(dataSetPermId)}/${file}`;
    // The token goes in the query as openBIS wants it; errors show the URL without it.
    return guardedFetch(`${url}?sessionID=${encodeURIComponent(token)}`, {
      field: 'path',
      policy: this.policy,
      ...(this.signal ? { signal: this.signal } : {}),
    }).catch((error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      const message = error.message.replace(/\?sessionID=[^ ]*/g, '');
      // The upstream status stays with the error (a bundle names a missing file by it).
      if (error instanceof UpstreamError)
        throw new UpstreamError(message, error.field ?? 'path', error.upstreamStatus);
      throw new DomainError(error.kind, message, error.field);
    });
  }
}

function objectsOf(result: Json): Dto[] {
  if (!isObject(result) || !Array.isArray(result['objects'])) return [];
  return result['objects'].filter(isObject);
}

/** An id DTO: `{"@type": …PermId, "permId": …}` (or `identifier` for identifier types). */
export function idDto(
  type: (typeof ID_TYPES)[keyof typeof ID_TYPES],
  value: string,
  entityKind?: string,
): Dto {
  if (type.endsWith('Identifier')) return { '@type': type, identifier: value };
  return { '@type': type, permId: value, ...(entityKind ? { entityKind } : {}) };
}
