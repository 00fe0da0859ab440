// The extractor's routes (spec "Lab-notebook extraction service"): each record endpoint opens
// the caller's openBIS session from the request's credentials (research §3.2: 401, or 307 to
// the ELN login for a browser), negotiates the representation from Accept (q-values), and
// forwards to the extractor's request consumer; a browser gets the record as an HTML page.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Runtime } from '../app/runtime.ts';
import { extractor, type OperationName } from '../lib/contracts/operations.ts';
import { part } from '../lib/contracts/schema.ts';
import { isDomainError } from '../lib/process/errors.ts';
import { intSetting, setting } from '../lib/process/config.ts';
import { isDownload } from '../lib/blobs/download.ts';
import { negotiate } from '../lib/extractor/negotiate.ts';
import { BUNDLE_FILE } from '../lib/extractor/bundle.ts';
import { downloadOf } from '../lib/extractor/records/media-types.ts';
import { OpenbisClient } from '../lib/extractor/openbis/client.ts';
import { withSession, type Credentials } from '../lib/extractor/session.ts';
import { route, type Result, type Route, type RouteInput } from './kit/index.ts';
import type { Forwarder } from './forward.ts';
import { recordPage } from './extractor-page.ts';

type Input = RouteInput<Record<string, unknown>, unknown>;

const RECORD_TYPES = [
  'application/ld+json',
  'text/turtle',
  'application/n-triples',
  'application/rdf+xml',
  'application/json',
  'text/html',
];
const recordResponses = {
  200: {
    description: `the record; by Accept (q-values): ${RECORD_TYPES.join(', ')} (also application/x-turtle)`,
    content: Object.fromEntries(RECORD_TYPES.map((t) => [t, null])),
  },
  307: { description: 'a browser without an active openBIS session: to the openBIS ELN login' },
  401: { description: 'no or no active openBIS session' },
  404: { description: 'no such record (or not visible to this openBIS user)' },
};

function credentialsOf(ctx: Context): Credentials {
  return { authorization: ctx.get('authorization') || undefined, cookie: ctx.cookies.get('openbis') };
}

/** Where a browser logs in to openBIS (the ELN sets the `openbis` cookie). */
const elnLogin = (): string => `${setting('OPENBIS_URL').replace(/\/+$/, '')}/openbis/webapp/eln-lims/`;

/** Trailers of a bundle: how many files could not be fetched, and their names. */
const MISSING = 'x-bundle-missing';
const MISSING_FILES = 'x-bundle-missing-files';

type RecordOperation = Exclude<OperationName<'extractor'>, 'info' | 'export_bundle'>;

export function extractorRoutes(runtime: Runtime, forward: Forwarder<'extractor'>): Route[] {
  /** Runs `work` with the caller's session; an unauthorized browser is sent to the ELN login. */
  const authenticated = async (
    ctx: Context,
    input: Input,
    html: boolean,
    work: (session: string, hold: (until: Promise<unknown>) => void) => Promise<Result>,
  ) => {
    try {
      return await withSession(new OpenbisClient({ signal: input.signal }), credentialsOf(ctx), work);
    } catch (error) {
      if (html && isDomainError(error) && error.kind === 'unauthorized' && setting('OPENBIS_URL') !== '') {
        return { redirect: elnLogin(), status: 307 };
      }
      throw error;
    }
  };

  const record =
    (operation: RecordOperation) =>
    async (input: Input, ctx: Context): Promise<Result> => {
      const negotiated = negotiate(ctx.get('accept') || undefined);
      const html = negotiated.representation === 'html';
      const { download, ...query } = input.query as { download?: string };
      const fields = {
        ...input.params,
        ...query,
        ...(download === undefined ? {} : { download: download === '1' || download === 'true' }),
      };
      return authenticated(ctx, input, html, async (session, hold) => {
        const representation = html ? 'ntriples' : negotiated.representation;
        const request = { ...fields, session, representation } as never;
        const headers = { vary: 'Accept, Authorization, Cookie' };
        if ((fields as { download?: boolean }).download === true) {
          // The file's bytes as the data store sends them, not after the last one.
          const file = downloadOf(String((fields as { path?: unknown }).path));
          const { result, reply } = await forward.streamed(operation, request, input, file);
          hold(reply);
          return { ...result, headers };
        }
        const reply = await forward.send(operation, request, input);
        if (!isDownload(reply)) throw new Error('the extractor did not reply with a stored record');
        const path = runtime.blobs.path(reply.blob);
        if (html) {
          const page = recordPage(await readFile(path, 'utf8'), ctx.URL.origin + ctx.path);
          return { body: page, contentType: 'text/html; charset=utf-8', headers };
        }
        return { body: { path }, contentType: negotiated.mediaType, headers };
      });
    };

  // `spans`: the id may be an identifier with plain slashes (/object/SPACE/PROJECT/CODE).
  const byId = (kind: RecordOperation, name: string, summary: string, spans = false): Route =>
    route({
      method: 'GET',
      path: `/${kind}/{${name}${spans ? '*' : ''}}`,
      summary,
      tags: ['records'],
      params: part(extractor[kind] as never, [name] as never),
      responses: recordResponses,
      handler: record(kind),
    });

  return [
    byId('object', 'perm_id', 'Object (sample) as linked data, by permId or identifier', true),
    byId('dataset', 'perm_id', 'Data set with its files as DCAT distributions'),
    byId('collection', 'perm_id', 'Collection (experiment) with its objects', true),
    byId('project', 'perm_id', 'Project with its collections', true),
    byId('space', 'perm_id', 'Space with its projects'),
    byId('user', 'user_id', 'Person'),
    byId('class', 'object_type_code', 'Object, collection or data-set type as an OWL class'),
    byId('object_property', 'property_type_code', 'Property type as an OWL object property'),
    route({
      method: 'GET',
      path: '/distribution/{perm_id}/{path*}',
      summary: 'One file of a data set: its record, or its bytes with ?download=1 (streamed)',
      tags: ['records'],
      params: part(extractor.distribution, ['perm_id', 'path']),
      // `?download=1` as in the spec's links; the contract's field is a boolean.
      query: {
        type: 'object',
        properties: { download: { type: 'string', enum: ['0', '1', 'false', 'true'], default: '0' } },
      },
      responses: {
        ...recordResponses,
        200: { description: 'the record (by Accept), or with download=1 the file' },
      },
      handler: record('distribution'),
    }),
    ...['/instance', '/instance/'].map((path) =>
      route({
        method: 'GET',
        path,
        summary: 'All spaces with their projects (the top of the hierarchy)',
        tags: ['records'],
        responses: recordResponses,
        handler: record('instance'),
      }),
    ),
    ...['/search', '/search/'].map((path) =>
      route({
        method: 'GET',
        path,
        summary: 'Full-text search (contains) over objects and collections: the hits with their records',
        tags: ['records'],
        query: part(extractor.search, ['query']),
        responses: recordResponses,
        handler: record('search'),
      }),
    ),
    route<Record<string, unknown>, unknown>({
      method: 'POST',
      path: '/export_bundle',
      summary: "A ZIP of the selected records' files with a valid RO-Crate 1.1 ro-crate-metadata.json",
      description:
        'Body: `{"graph": "<JSON-LD as a string>"}` (the original UI: its data sets and distributions are ' +
        'selected) or a list of record IRIs (`["…/dataset/<permId>", …]` or `{"iris": [...]}`; data sets, ' +
        'distributions, objects and collections). The ZIP streams while it is built (a failure part-way aborts ' +
        'the response); files that cannot be fetched are named in the crate and in the `X-Bundle-Missing` and ' +
        '`X-Bundle-Missing-Files` trailers.',
      tags: ['bundle'],
      body: {
        json: {
          type: ['object', 'array'],
          items: extractor.export_bundle.properties.iris.items,
          properties: part(extractor.export_bundle, ['graph', 'iris']).properties,
          additionalProperties: false,
        },
        mediaType: 'application/ld+json',
      },
      responses: { 200: { description: 'the ZIP (application/zip)' } },
      handler: async (input, ctx) =>
        authenticated(ctx, input, false, async (session, hold) => {
          const body = input.body as { graph?: string; iris?: string[] } | string[] | undefined;
          const selection = Array.isArray(body) ? { iris: body } : (body ?? {});
          const timeoutMs = intSetting('LABLD_EXTRACTOR_BUNDLE_TIMEOUT_MS');
          const { result, reply } = await forward.streamed(
            'export_bundle',
            { ...selection, session },
            input,
            BUNDLE_FILE,
            { timeoutMs },
          );
          hold(reply);
          // The ZIP streams while it is built, so which files were missing is known at its end:
          // HTTP trailers (the crate names them too).
          const trailed = async function* () {
            for await (const chunk of result.body) yield chunk as Buffer;
            const missing = ((await reply) as { missing?: string[] }).missing ?? [];
            ctx.res.addTrailers({
              [MISSING]: String(missing.length),
              [MISSING_FILES]: missing.map(encodeURIComponent).join(',').slice(0, 4000),
            });
          };
          return {
            ...result,
            body: Readable.from(trailed(), { objectMode: false }),
            headers: { trailer: `${MISSING}, ${MISSING_FILES}` },
          };
        }),
    }),
  ];
}
