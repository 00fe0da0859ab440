// The Confluent wire-format codec against the registry test double (no broker needed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadTopics } from '../../lib/bus/topics.ts';
import { RegistryCodec, WireFormatError, frame } from '../../lib/bus/kafka/registry-codec.ts';
import { startRegistryDouble, type RegistryDouble } from './registry-double.ts';

const catalog = loadTopics('topics.yaml');
const request = { operation: 'annotate', input: { data_url: 'https://example.org/a.csv' } };
let registry: RegistryDouble;

before(async () => {
  registry = await startRegistryDouble();
});
after(() => registry.close());

async function get(path: string): Promise<unknown> {
  return (await fetch(`${registry.url}${path}`)).json();
}

test('a payload is framed as magic byte 0, the schema id, then the JSON; decoding returns it', async () => {
  const codec = new RegistryCodec({ url: registry.url, catalog, subjectPrefix: 'a.' });
  const bytes = await codec.encode('labld.annotator.requests', 'annotator-request.schema.json', request);
  assert.equal(bytes[0], 0);
  const id = bytes.readInt32BE(1);
  assert.ok(id > 0);
  assert.deepEqual(JSON.parse(bytes.subarray(5).toString()), request);
  assert.deepEqual(await codec.decode('labld.annotator.requests', bytes), request);
  const registered = (await get('/subjects/a.labld.annotator.requests-value/versions/latest')) as {
    id: number;
    schemaType: string;
  };
  assert.equal(registered.id, id);
  assert.equal(registered.schemaType, 'JSON');
});

test('one schema under two topics keeps one id; every reply topic shares its family subject', async () => {
  const codec = new RegistryCodec({ url: registry.url, catalog, subjectPrefix: 'b.' });
  const one = await codec.encode('labld.annotator.requests', 'annotator-request.schema.json', request);
  const two = await codec.encode('labld.mapper.requests', 'annotator-request.schema.json', request);
  assert.equal(one.readInt32BE(1), two.readInt32BE(1));
  await codec.encode('labld.replies.gw-1', 'service-reply.schema.json', { ok: true, value: 1 });
  await codec.encode('labld.replies.gw-2', 'service-reply.schema.json', { ok: true, value: 2 });
  const subjects = ((await get('/subjects')) as string[]).filter((s) => s.startsWith('b.'));
  assert.deepEqual(subjects.sort(), [
    'b.labld.annotator.requests-value',
    'b.labld.mapper.requests-value',
    'b.labld.replies-value',
  ]);
  assert.deepEqual(await get('/subjects/b.labld.replies-value/versions'), [1]);
});

test('another Confluent client reads the frames (wire-format compatible)', async () => {
  const codec = new RegistryCodec({ url: registry.url, catalog });
  const bytes = await codec.encode('labld.annotator.requests', 'annotator-request.schema.json', request);
  // Another client compiles the registered schema with its own validator (formats included:
  // request schemas use `format: uri`).
  const ajv = new Ajv2020({ strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  const reader = new SchemaRegistry(
    { host: registry.url },
    { [SchemaType.JSON]: { ajvInstance: ajv as never } },
  );
  assert.deepEqual(await reader.decode(bytes), request);
});

test('bytes that are not in the wire format are refused (the bus dead-letters them)', async () => {
  const codec = new RegistryCodec({ url: registry.url, catalog });
  await assert.rejects(codec.decode('t', Buffer.from('{"a":1}')), WireFormatError);
  await assert.rejects(codec.decode('t', Buffer.from([0, 0])), WireFormatError);
  assert.deepEqual(await codec.decode('t', frame(7, Buffer.from('[1]'))), [1]);
});

test('an unreachable registry fails the publish, and a later publish registers again', async () => {
  const down = await startRegistryDouble();
  const url = down.url;
  await down.close();
  const codec = new RegistryCodec({ url, catalog });
  await assert.rejects(codec.encode('labld.annotator.requests', 'annotator-request.schema.json', request));
  const up = await startRegistryDouble(Number(new URL(url).port));
  try {
    const bytes = await codec.encode('labld.annotator.requests', 'annotator-request.schema.json', request);
    assert.equal(bytes.readInt32BE(1), 1);
  } finally {
    await up.close();
  }
});
