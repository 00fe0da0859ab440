// An openBIS TEST DOUBLE: the v3 JSON-RPC surface the extractor uses (research §3.8), served
// from the fixture payloads on 127.0.0.1, so that no test needs a real openBIS. Application
// server and data store share one port, as behind openBIS's own nginx. Answers are written in
// Jackson's form (numbered `@id`s, repeated objects as back-references); sessions are real
// (login, isSessionActive, logout); switches make it answer garbage, never answer, fail every
// call with an openBIS error, or serve a file of any size without holding it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { encodeJackson, type Json } from '../../lib/extractor/openbis/jackson.ts';
import { DoubleData, type Dto } from './openbis-double-data.ts';
import { serve, type TestServer } from './file-server.ts';
import { DoubleSearch, SEARCHES } from './openbis-double-search.ts';
import { RpcError, checkFetchOptions, checkIdKind, pruneToFetchOptions } from './openbis-double-strict.ts';

export const AS_PATH = '/openbis/openbis/rmi-application-server-v3.json';
export const V1_PATH = '/openbis/openbis/rmi-general-information-v1.json';
export const DSS_PATH = '/datastore_server/rmi-data-store-server-v3.json';

export interface DoubleSwitches {
  /** `garbage`: every answer is not JSON; `hang`: no answer at all; `error`: every call fails. */
  mode: 'normal' | 'garbage' | 'hang' | 'error';
  /** Waits this long before each JSON-RPC answer (the floor of the extractor's benchmark). */
  delayMs: number;
}

export interface OpenbisDouble extends TestServer {
  data: DoubleData;
  switches: DoubleSwitches;
  /** user → password of the accounts that may log in. */
  users: Map<string, string>;
  /** Live session tokens. */
  sessions: Set<string>;
  /** `<permId>/<path>` of files listed but not served (the data store answers 404). */
  unavailable: Set<string>;
  /** `<permId>/<path>` of files whose download stops half-way (the connection is cut). */
  truncated: Set<string>;
  /**
   * `<permId>/<path>` of files sent in two parts: the first 64 KiB, then, once the promise
   * settles, the rest (true) or a cut connection (false). A test sees what arrives in between.
   */
  paused: Map<string, Promise<boolean>>;
  /** How many JSON-RPC calls each method got. */
  calls: Map<string, number>;
  /** A file of `size` bytes in data set `dataSetPermId`, made as it is sent, never held. */
  addHugeFile(dataSetPermId: string, path: string, size: number): void;
}

/** Where a paused file's download waits. */
const PAUSE_AFTER = 64 * 1024;

const searchResult = (objects: Json[]): Dto => ({
  '@type': 'as.dto.common.search.SearchResult',
  objects,
  totalCount: objects.length,
});

function ids(params: Json[], kinds: readonly string[]): string[] {
  const list = params[1];
  if (!Array.isArray(list)) throw new RpcError('ids must be a list');
  return list.map((id) => {
    if (typeof id !== 'object' || id === null || Array.isArray(id))
      throw new RpcError('id must be an object');
    checkIdKind(id, kinds);
    const value = id['permId'] ?? id['identifier'] ?? id['code'];
    if (typeof value !== 'string') throw new RpcError(`unsupported id ${JSON.stringify(id)}`);
    return value;
  });
}

/** Per get method: the id classes it declares and its fetch options class. */
const GETS = {
  getSamples: [
    'sample',
    ['sample.id.SamplePermId', 'sample.id.SampleIdentifier'],
    'sample.fetchoptions.SampleFetchOptions',
  ],
  getExperiments: [
    'experiment',
    ['experiment.id.ExperimentPermId', 'experiment.id.ExperimentIdentifier'],
    'experiment.fetchoptions.ExperimentFetchOptions',
  ],
  getDataSets: ['dataSet', ['dataset.id.DataSetPermId'], 'dataset.fetchoptions.DataSetFetchOptions'],
  getProjects: [
    'project',
    ['project.id.ProjectPermId', 'project.id.ProjectIdentifier'],
    'project.fetchoptions.ProjectFetchOptions',
  ],
  getSpaces: ['space', ['space.id.SpacePermId'], 'space.fetchoptions.SpaceFetchOptions'],
  getPersons: ['person', ['person.id.PersonPermId'], 'person.fetchoptions.PersonFetchOptions'],
  getSampleTypes: [
    'sampleType',
    ['entitytype.id.EntityTypePermId'],
    'sample.fetchoptions.SampleTypeFetchOptions',
  ],
  getExperimentTypes: [
    'experimentType',
    ['entitytype.id.EntityTypePermId'],
    'experiment.fetchoptions.ExperimentTypeFetchOptions',
  ],
  getDataSetTypes: [
    'dataSetType',
    ['entitytype.id.EntityTypePermId'],
    'dataset.fetchoptions.DataSetTypeFetchOptions',
  ],
  getPropertyTypes: [
    'propertyType',
    ['property.id.PropertyTypePermId'],
    'property.fetchoptions.PropertyTypeFetchOptions',
  ],
} as const;

function textOfCriteria(criteria: Json): string {
  // GlobalSearchCriteria{criteria: [GlobalSearchTextCriteria{fieldValue: StringContainsValue{value}}]}
  const found = JSON.stringify(criteria).match(/"value"\s*:\s*"((?:[^"\\]|\\.)*)"/);
  return found ? (JSON.parse(`"${found[1]}"`) as string) : '';
}

export async function startOpenbisDouble(): Promise<OpenbisDouble> {
  const huge = new Map<string, number>();
  const hugeChunk = randomBytes(64 * 1024);
  let origin = '';
  const double = {} as OpenbisDouble;
  const server = await serve((req, res) => void handle(req, res));
  origin = server.origin;
  const data = new DoubleData(origin);
  const search = new DoubleSearch(data);
  Object.assign(double, server, {
    data,
    switches: { mode: 'normal', delayMs: 0 } satisfies DoubleSwitches,
    users: new Map([
      ['admin', 'changeit'],
      ['observer', 'observer-pass'],
    ]),
    sessions: new Set<string>(),
    unavailable: new Set<string>(),
    truncated: new Set<string>(),
    paused: new Map<string, Promise<boolean>>(),
    calls: new Map<string, number>(),
    addHugeFile: (dataSetPermId: string, path: string, size: number) => {
      huge.set(`${dataSetPermId}/${path}`, size);
      data.addFile(dataSetPermId, path, Buffer.alloc(0));
    },
  });

  const session = (token: Json | undefined): string => {
    if (typeof token !== 'string' || !double.sessions.has(token)) {
      throw new RpcError(`Session token '${String(token)}' is invalid: user is not logged in.`);
    }
    return token;
  };

  const getMap = (method: keyof typeof GETS, params: Json[]): Dto => {
    const [kind, idKinds, options] = GETS[method];
    session(params[0]);
    const fetch = checkFetchOptions(params[2], `as.dto.${options}`);
    const out: Dto = {};
    for (const id of ids(
      params,
      idKinds.map((k) => `as.dto.${k}`),
    )) {
      const found = kind === 'propertyType' ? data.propertyTypes.get(id) : data.find(kind, id);
      if (found !== undefined) out[id] = pruneToFetchOptions(found, fetch);
    }
    return out;
  };

  const filesOf = (permId: string): Json[] => {
    const list = data.files.get(permId) ?? [];
    const fileDto = (path: string, directory: boolean, length: number): Dto => ({
      '@type': 'dss.dto.datasetfile.DataSetFile',
      permId: {
        '@type': 'dss.dto.datasetfile.id.DataSetFilePermId',
        dataSetId: { '@type': 'as.dto.dataset.id.DataSetPermId', permId },
        filePath: path,
      },
      dataSetPermId: { '@type': 'as.dto.dataset.id.DataSetPermId', permId },
      dataStore: data.dataStore,
      path,
      directory,
      fileLength: length,
      checksumCRC32: 0,
      checksum: null,
      checksumType: null,
    });
    const directories = new Set<string>(['']);
    for (const { path } of list) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) directories.add(parts.slice(0, i).join('/'));
    }
    return [
      ...[...directories].sort().map((path) => fileDto(path, true, 0)),
      ...list.map((f) => fileDto(f.path, false, huge.get(`${permId}/${f.path}`) ?? f.bytes.length)),
    ];
  };

  const methods: Record<string, (params: Json[]) => Json> = {
    login: ([user, password]) => {
      if (typeof user !== 'string' || double.users.get(user) !== password) return null;
      const token = `${user}-${randomBytes(12).toString('hex')}`;
      double.sessions.add(token);
      return token;
    },
    logout: ([token]) => {
      if (typeof token === 'string') double.sessions.delete(token);
      return null;
    },
    isSessionActive: ([token]) => typeof token === 'string' && double.sessions.has(token),
    getServerInformation: ([token]) => {
      session(token);
      return {
        'api-version': '3.6',
        'project-samples-enabled': 'false',
        'openbis-version': '20.10.7 (test double)',
      };
    },
    ...Object.fromEntries(
      Object.keys(GETS).map((method) => [
        method,
        (params: Json[]) => getMap(method as keyof typeof GETS, params),
      ]),
    ),
    searchDataStores: ([token, , options]) => {
      session(token);
      checkFetchOptions(options, 'as.dto.datastore.fetchoptions.DataStoreFetchOptions');
      return searchResult([data.dataStore]);
    },
    searchGlobally: ([token, criteria, options]) => {
      session(token);
      const fetch = checkFetchOptions(options, 'as.dto.global.fetchoptions.GlobalSearchObjectFetchOptions');
      const text = textOfCriteria(criteria ?? null).toLowerCase();
      const hits: Json[] = [];
      const matches = (dto: Dto) =>
        text !== '' &&
        (String(dto['code']).toLowerCase().includes(text) ||
          JSON.stringify(dto['properties'] ?? {})
            .toLowerCase()
            .includes(text));
      for (const [objectKind, kind] of [
        ['SAMPLE', 'sample'],
        ['EXPERIMENT', 'experiment'],
      ] as const) {
        for (const dto of data.entities[kind].values()) {
          if (!matches(dto)) continue;
          hits.push({
            '@type': 'as.dto.global.GlobalSearchObject',
            objectKind,
            objectPermId: dto['permId'] ?? null,
            objectIdentifier: dto['identifier'] ?? null,
            score: 1,
            sample: kind === 'sample' ? dto : null,
            experiment: kind === 'experiment' ? dto : null,
            dataSet: null,
          });
        }
      }
      return searchResult(hits.map((hit) => pruneToFetchOptions(hit, fetch)));
    },
    searchFiles: ([token, criteria, options]) => {
      session(token);
      checkFetchOptions(options, 'dss.dto.datasetfile.fetchoptions.DataSetFileFetchOptions');
      const code = textOfCriteria(criteria ?? null);
      return searchResult(filesOf(code));
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
    if (double.switches.mode === 'hang') return; // never answers; the client's timeout must act
    if (req.method === 'POST' && [AS_PATH, V1_PATH, DSS_PATH].includes(url.pathname)) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (double.switches.delayMs > 0) await new Promise((r) => setTimeout(r, double.switches.delayMs));
      res.setHeader('content-type', 'application/json');
      if (double.switches.mode === 'garbage') {
        res.end('<html>502 Bad Gateway from a proxy in front of openBIS</html>');
        return;
      }
      let id: Json = null;
      try {
        const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Dto;
        id = call['id'] ?? null;
        const method = String(call['method']);
        double.calls.set(method, (double.calls.get(method) ?? 0) + 1);
        if (double.switches.mode === 'error') throw new RpcError('internal error (test double switch)');
        const params = call['params'];
        if (!Array.isArray(params)) throw new RpcError('params must be a list');
        const run = methods[method];
        let result: Json | undefined;
        if (run !== undefined) result = run(params);
        else if (method in SEARCHES) {
          session(params[0]);
          result = search.run(method, params);
        }
        if (result === undefined) throw new RpcError(`no method ${method}`);
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: encodeJackson(result) }));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id, error: { code: 0, message, data: { '@type': 'Error' } } }),
        );
      }
      return;
    }
    const download = url.pathname.match(/^\/datastore_server\/([^/]+)\/(.+)$/);
    if (req.method === 'GET' && download) {
      const [, permId = '', rawPath = ''] = download;
      const path = decodeURIComponent(rawPath);
      const token = url.searchParams.get('sessionID');
      if (token === null || !double.sessions.has(token)) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('invalid session');
        return;
      }
      const size = huge.get(`${permId}/${path}`);
      const file = data.files.get(permId)?.find((f) => f.path === path);
      if (file === undefined || double.unavailable.has(`${permId}/${path}`)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('file not found');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(size ?? file.bytes.length),
      });
      if (double.truncated.has(`${permId}/${path}`)) {
        res.write((size === undefined ? file.bytes : hugeChunk).subarray(0, 1024));
        setTimeout(() => res.destroy(), 50);
        return;
      }
      const gate = double.paused.get(`${permId}/${path}`);
      if (gate !== undefined && size === undefined) {
        res.write(file.bytes.subarray(0, PAUSE_AFTER));
        if (await gate) res.end(file.bytes.subarray(PAUSE_AFTER));
        else res.destroy();
        return;
      }
      if (size === undefined) {
        res.end(file.bytes);
        return;
      }
      // Random bytes (one 64 KiB block, repeated past deflate's 32 KiB window): a ZIP of it costs what real data does.
      const chunk = hugeChunk;
      let left = size;
      Readable.from(
        (function* () {
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            left -= n;
            yield n === chunk.length ? chunk : chunk.subarray(0, n);
          }
        })(),
      )
        .on('error', () => res.destroy())
        .pipe(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  return double;
}

/**
 * Points labld (started after this) at the double with `baseUrl` as BASE_URL, and any other
 * settings given; returns the undo.
 */
export function pointLabldAt(
  double: OpenbisDouble,
  baseUrl: string,
  more: Record<string, string> = {},
): () => void {
  const settings: Record<string, string> = { OPENBIS_URL: double.origin, BASE_URL: baseUrl, ...more };
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
