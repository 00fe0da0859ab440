// Test support: a sample gateway exercising every feature of the kit, and a server on port 0.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { DomainError, TimeoutError } from '../../../lib/process/errors.ts';
import {
  createApp,
  createGateway,
  route,
  type AppOptions,
  type Gateway,
} from '../../../gateways/kit/index.ts';

export const RETURN_TYPES = ['json-ld', 'n3', 'nt', 'hext', 'trig', 'turtle', 'longturtle', 'xml'];

export function sampleGateway(
  options: { service?: string; basePath?: string; fixtureFile?: string } = {},
): Gateway {
  return createGateway({
    service: options.service ?? 'annotator',
    basePath: options.basePath,
    title: 'CSV annotation service',
    version: 'v1.3.5',
    description: 'CSV to CSVW',
    routes: [
      route<{ return_type: string }, { data_url: string; encoding: string }>({
        method: 'POST',
        path: '/api/annotate',
        summary: 'Annotate a CSV reachable by URL',
        tags: ['annotate'],
        query: {
          type: 'object',
          properties: { return_type: { type: 'string', enum: RETURN_TYPES, default: 'json-ld' } },
        },
        body: {
          json: {
            type: 'object',
            properties: {
              data_url: { type: 'string', format: 'uri' },
              encoding: { type: 'string', default: 'auto' },
            },
            required: ['data_url'],
          },
        },
        responses: { 200: { description: 'The descriptor', content: { 'application/ld+json': null } } },
        handler: ({ query, body, correlationId }) => ({ json: { query, body, correlationId } }),
      }),
      route<{ return_type: string }, { note?: string; count?: number }>({
        method: 'POST',
        path: '/api/annotate_upload',
        summary: 'Annotate an uploaded CSV',
        query: {
          type: 'object',
          properties: { return_type: { type: 'string', enum: RETURN_TYPES, default: 'json-ld' } },
        },
        body: {
          multipart: {
            fileField: 'file',
            fields: { type: 'object', properties: { note: { type: 'string' }, count: { type: 'integer' } } },
          },
        },
        responses: { 200: { description: 'What was received' } },
        handler: async ({ query, body, file }) => {
          const { readFile } = await import('node:fs/promises');
          const keep = body.note === 'keep';
          return {
            json: {
              query,
              fields: body,
              path: keep ? file.keep() : file.path,
              filename: file.filename,
              size: file.size,
              mimetype: file.mimetype,
              sha256: file.sha256,
              content: (await readFile(file.path)).toString('utf8'),
            },
          };
        },
      }),
      route<{ limit: number; flag: boolean; tags?: string[] }, unknown, { id: number }>({
        method: 'GET',
        path: '/api/items/{id}',
        summary: 'Coercion of query and path parameters',
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
        query: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'page size' },
            flag: { type: 'boolean', default: false },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        responses: { 200: { description: 'Echo', content: { 'application/json': { type: 'object' } } } },
        handler: ({ query, params }) => ({ json: { query, params } }),
      }),
      route({
        method: 'POST',
        path: '/api/createrdf',
        summary: 'Parameters in the query or, optionally, the body',
        query: { type: 'object', properties: { mapping_url: { type: 'string' } } },
        body: { json: { type: 'object', properties: { mapping_url: { type: 'string' } } }, required: false },
        responses: { 200: { description: 'Echo' } },
        handler: ({ query, body }) => ({ json: { query, body: body ?? null } }),
      }),
      route({
        method: 'POST',
        path: '/api/createrdfupload',
        summary: 'An upload, or a JSON body instead',
        body: {
          multipart: {
            fileField: 'file',
            json: {
              type: 'object',
              required: ['data_content'],
              properties: { data_content: { type: 'string' } },
            },
          },
        },
        responses: { 200: { description: 'What was received' } },
        handler: ({ body, file }) => ({ json: { body: body ?? null, filename: file?.filename ?? null } }),
      }),
      route({
        method: 'GET',
        path: '/api/download',
        summary: 'A file download',
        responses: { 200: { description: 'CSV', content: { 'text/csv': null } } },
        handler: () => ({ body: 'a,b\n1,2\n', contentType: 'text/csv', filename: 'table.csv' }),
      }),
      route({
        method: 'GET',
        path: '/api/download-file',
        summary: 'A file from disk',
        responses: { 200: { description: 'Turtle' } },
        handler: () => ({
          body: { path: options.fixtureFile ?? '/nonexistent' },
          contentType: 'text/turtle',
          filename: 'graph ü.ttl',
        }),
      }),
      route({
        method: 'POST',
        path: '/api/accept',
        summary: 'Status only',
        responses: { 202: { description: 'Accepted' } },
        handler: () => ({ status: 202 }),
      }),
      route({
        method: 'GET',
        path: '/api/fail/{kind}',
        summary: 'Errors of every kind',
        responses: { 200: { description: 'never' } },
        handler: ({ params }) => {
          if (params.kind === 'client') throw new DomainError('conflict', 'already exists', 'name');
          if (params.kind === 'timeout') throw new TimeoutError('no reply from annotate within 10 ms');
          if (params.kind === 'throw') {
            const error = new Error('secret internals at /srv/labld');
            throw error;
          }
          return { body: 'half', contentType: 'text/plain', filename: 'x.txt', headers: { 'X-Extra': '1' } };
        },
      }),
      route({
        method: 'GET',
        path: '/files/{perm_id}/{path*}',
        summary: 'A wildcard path',
        responses: { 200: { description: 'Echo' } },
        handler: ({ params }) => ({ json: params }),
      }),
    ],
  });
}

export interface Started {
  url: string;
  dataDir: string;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/** createApp on 127.0.0.1:0 with a fresh data directory and an in-memory log. */
export async function start(options: Partial<AppOptions> = {}): Promise<Started> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'labld-kit-'));
  const fixtureFile = path.join(dataDir, 'fixture.ttl');
  await writeFile(fixtureFile, '<a> <b> <c> .\n');
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line));
      callback();
    },
  });
  const app = createApp({
    gateways: options.gateways ?? [sampleGateway({ fixtureFile })],
    dataDir,
    logger: pino({ level: 'debug' }, sink),
    ...options,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logs,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
