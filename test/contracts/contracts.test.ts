// Operation contracts (lib/contracts): the schema files the bus and the schema registry read
// are the contracts written out; a request that does not fit is refused naming the field, in
// the gateway before publishing and in the consumer's worker after a claim is fetched; and what the
// contract refuses at run time does not compile either (`@ts-expect-error` below, checked by
// `npm run typecheck`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadTopics } from '../../lib/bus/topics.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { SERVICES, requestGroupOf, serviceInfo } from '../../lib/services.ts';
import { OPERATIONS, type OperationInputs } from '../../lib/contracts/operations.ts';
import {
  checkRequest,
  declaredFields,
  requestSchema,
  requestSchemaFile,
} from '../../lib/contracts/requests.ts';
import { part } from '../../lib/contracts/schema.ts';
import { WorkerPool } from '../../consumers/workers/pool.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { INLINE_BYTES, checkIn } from '../../lib/blobs/claim-check.ts';
import type { Forwarder } from '../../gateways/forward.ts';
import type { RouteInput } from '../../gateways/kit/index.ts';
import { tempDir } from '../support/temp.ts';

const schemas = new URL('../../schemas/', import.meta.url).pathname;
const csv = 'https://example.org/a.csv';

const refusal = (field: string, problem: RegExp) => (e: unknown) =>
  e instanceof DomainError && e.kind === 'invalid' && e.field === field && problem.test(e.message);

test('each request topic reads the schema file generated from its service contract, and the file is in step', () => {
  const catalog = loadTopics(new URL('../../topics.yaml', import.meta.url).pathname);
  for (const service of SERVICES) {
    const file = requestSchemaFile(service);
    assert.equal(catalog.topicReadBy(requestGroupOf(service)).schema, file);
    const written = JSON.parse(readFileSync(`${schemas}${file}`, 'utf8')) as unknown;
    assert.deepEqual(written, requestSchema(service), `${file} is stale: run node tools/contracts.ts`);
  }
});

test('the schema files are self-contained: the schema registry gets each as one document', () => {
  for (const service of SERVICES) {
    const text = readFileSync(`${schemas}${requestSchemaFile(service)}`, 'utf8');
    const refs = [...text.matchAll(/"\$ref":\s*"([^"]*)"/g)].map((m) => m[1]);
    assert.ok(
      refs.length > 0 && refs.every((ref) => ref!.startsWith('#/')),
      `${service}: ${refs.join(', ')}`,
    );
  }
});

test('a request that does not fit its contract is refused naming the field as the client sent it', () => {
  const cases: [Parameters<typeof checkRequest>[0], { operation: string; input: unknown }, string, RegExp][] =
    [
      ['converter', { operation: 'createrdf', input: {} }, 'mapping_url', /^mapping_url: is required$/],
      ['converter', { operation: 'rdfvalidator', input: { shapes_url: csv } }, 'rdf_url', /is required/],
      ['converter', { operation: 'normalizeyarrrml', input: {} }, 'mapping_url', /is required/],
      [
        'converter',
        { operation: 'createrdf', input: { mapping_url: 'not a uri' } },
        'mapping_url',
        /format "uri"/,
      ],
      ['mapper', { operation: 'entities', input: { url: csv, types: 3 } }, 'types', /must be string,array/],
      ['mapper', { operation: 'mapping', input: { data_url: csv, template_url: csv } }, 'map', /is required/],
      [
        'mapper',
        { operation: 'mapping', input: { data_url: csv, template_url: csv, map: { a: 1 } } },
        'map.a',
        /string/,
      ],
      [
        'annotator',
        { operation: 'annotate', input: { data_url: csv, encoding: 'ebcdic' } },
        'encoding',
        /utf-8/,
      ],
      ['annotator', { operation: 'createrdf', input: {} }, 'operation', /must be one of: info, annotate/],
      ['extractor', { operation: 'info', input: { x: 1 } }, 'x', /is not allowed/],
      ['extractor', { operation: 'info', input: [] }, 'input', /must be object/],
    ];
  for (const [service, request, field, problem] of cases) {
    assert.throws(() => checkRequest(service, request), refusal(field, problem), JSON.stringify(request));
  }
  checkRequest('converter', { operation: 'createrdf', input: { mapping_url: csv, return_type: 'nt' } });
  checkRequest('converter', {
    operation: 'createrdfupload',
    input: { mapping_url: csv, blob: 'k', filename: 'a' },
  });
  checkRequest('mapper', { operation: 'entities', input: { url: csv, types: ['a', 'b'] } });
});

test('the gateway sends only the fields an operation declares (a JSON body may carry more)', () => {
  assert.deepEqual(
    declaredFields('annotator', 'annotate', { data_url: csv, x: { deep: 1 }, encoding: 'auto' }),
    {
      data_url: csv,
      encoding: 'auto',
    },
  );
  assert.deepEqual(declaredFields('mapper', 'info', { url: csv }), {});
});

test('a route reads its part of the contract: the same schema objects, required where the contract requires', () => {
  const query = part(OPERATIONS.annotator.annotate, ['return_type']);
  const body = part(OPERATIONS.annotator.annotate, ['data_url', 'encoding']);
  assert.deepEqual(Object.keys(query), ['type', 'properties']);
  assert.deepEqual(body.required, ['data_url']);
  const properties = body.properties as Record<string, unknown>;
  assert.equal(properties.data_url, OPERATIONS.annotator.annotate.properties.data_url);
  assert.deepEqual(part(OPERATIONS.converter.createrdf, ['mapping_url'], []).required, undefined);
});

test('a consumer checks its input again in its worker, after the claim check (the bus saw only the claim)', async () => {
  const dataDir = tempDir('labld-contracts-');
  const consumer = { group: requestGroupOf('extractor') };
  const pool = new WorkerPool({ sources: [consumer], dataDir, size: 1 });
  await pool.start();
  try {
    // Large enough to travel as a claim: the request topic's schema sees only `{$claim}`.
    const claim = await checkIn(blobStoreIn(dataDir), { pages: 'x'.repeat(INLINE_BYTES) });
    assert.deepEqual(Object.keys(claim), ['$claim']);
    checkRequest('extractor', { operation: 'info', input: claim });
    await assert.rejects(pool.run(consumer.group, 'info', claim), refusal('pages', /is not allowed/));
    assert.deepEqual(await pool.run(consumer.group, 'info', {}), serviceInfo('extractor'));
  } finally {
    await pool.close();
  }
});

test('what does not compile is also refused at run time', async () => {
  const sent: [string, unknown][] = [];
  const forward = {
    send: async (operation: string, fields: unknown) => {
      sent.push([operation, fields]);
      checkRequest('annotator', { operation, input: fields });
    },
  } as unknown as Forwarder<'annotator'>;
  const input = {} as RouteInput<Record<string, unknown>, unknown>;
  // @ts-expect-error an operation the annotator does not offer
  await assert.rejects(forward.send('annotat', { data_url: csv }, input), refusal('operation', /annotate/));
  // @ts-expect-error a misspelt field
  await assert.rejects(forward.send('annotate', { data_ulr: csv }, input), refusal('data_url', /required/));
  // @ts-expect-error a field of the wrong type
  await assert.rejects(forward.send('rdf', { metadata_url: 1 }, input), refusal('metadata_url', /string/));
  // @ts-expect-error another service's operation
  await assert.rejects(forward.send('createrdf', { mapping_url: csv }, input), refusal('operation', /rdf/));
  await forward.send('annotate', { data_url: csv, return_type: 'turtle' }, input);
  assert.equal(sent.length, 5);
  // The inputs' types: what a consumer receives.
  const upload: OperationInputs['converter']['createrdfupload'] = {
    mapping_url: csv,
    data_url: csv,
    data_content: '',
  };
  // @ts-expect-error the JSON form needs data_content
  const partial: OperationInputs['converter']['createrdfupload'] = { mapping_url: csv, data_url: csv };
  assert.notDeepEqual(upload, partial);
  // Optional where the contract does not require: these compile, and fit at run time too.
  const fitting: {
    [S in keyof OperationInputs]?: { [O in keyof OperationInputs[S]]?: OperationInputs[S][O] };
  } = {
    annotator: { annotate: { data_url: csv }, rdf: { metadata_url: csv }, info: {} },
    mapper: { entities: { url: csv }, mapping: { data_url: csv, template_url: csv, map: {} } },
    converter: {
      createrdf: { mapping_url: csv },
      createrdfupload: { mapping_url: csv, blob: 'k', filename: 'a.json' },
      normalizeyarrrml: { blob: 'k', filename: 'm.yaml' },
      yarrrmltorml: { mapping_url: csv },
    },
  };
  for (const [service, inputs] of Object.entries(fitting)) {
    for (const [operation, fields] of Object.entries(inputs))
      checkRequest(service as keyof OperationInputs, { operation, input: fields });
  }
  // @ts-expect-error normalizeyarrrml needs the upload's blob or a mapping_url
  const neither: OperationInputs['converter']['normalizeyarrrml'] = { filename: 'm.yaml' };
  assert.throws(
    () => checkRequest('converter', { operation: 'normalizeyarrrml', input: neither }),
    refusal('mapping_url', /is required/),
  );
});
