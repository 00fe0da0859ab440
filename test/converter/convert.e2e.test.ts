// The converter through HTTP (embedded bus here; `.ci/run` repeats it on Kafka): the seed
// mappings served from a local server, every endpoint on its happy path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Store } from 'oxigraph';
import { parse } from '../../lib/rdf/index.ts';
import { useConverter } from './context.ts';
import { readSeed } from './support.ts';
import { readFileSync } from 'node:fs';
import { CRATE_MAPPING, CRATE_METADATA_TEXT, writeZip } from './crate.ts';

const ctx = useConverter();

const post = (path: string, init: RequestInit = {}) =>
  fetch(`${ctx.api}${path}`, { method: 'POST', ...init });
const json = (value: unknown): RequestInit => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

test('createrdf (query string): the joined graph with honest counts', async () => {
  const res = await post(`/createrdf${q({ mapping_url: ctx.files.url('/csvw-template-map.yaml') })}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(body.filename, 'example-joined.ttl');
  assert.equal(body.num_mappings_applied, 7);
  assert.equal(body.num_mappings_skipped, 0);
  const quads = await parse(String(body.graph), 'turtle');
  const links = quads.filter((x) => x.predicate.value === 'http://purl.obolibrary.org/obo/RO_0010002');
  assert.equal(links.length, 7);
  assert.ok(
    links.every((l) => l.object.value.endsWith(`example-joined.ttl#${l.object.value.split('#')[1]}`)),
  );
});

test('createrdf (JSON body, return_type nt): JSON payload mode with Batch.json', async () => {
  const res = await post(
    `/createrdf${q({ return_type: 'nt' })}`,
    json({
      mapping_url: ctx.files.url('/catenax-batch-map.yaml'),
      data_url: ctx.files.url('/batch/Batch.json'),
    }),
  );
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(body.filename, 'Batch-joined.nt');
  assert.deepEqual([body.num_mappings_applied, body.num_mappings_skipped], [6, 0]);
  const quads = await parse(String(body.graph), 'nt');
  assert.ok(
    quads.some(
      (x) =>
        x.subject.value ===
        `${ctx.files.url('/batch/Batch.json')}#Batch_580d3adf-1981-44a0-a214-13d6ceed9379`,
    ),
  );
});

test('createrdfupload: the original JSON form and the spec multipart form', async () => {
  const dataUrl = 'urn:uuid:580d3adf-1981-44a0-a214-13d6ceed9379';
  const res = await post(
    '/createrdfupload',
    json({
      mapping_url: ctx.files.url('/catenax-batch-map.yaml'),
      data_url: dataUrl,
      data_content: readSeed('rdfconverter/Batch.json'),
    }),
  );
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(body.filename, `${dataUrl}.ttl`);
  assert.ok(String(body.graph).includes(`${dataUrl}#`));
  assert.ok(Number(body.num_mappings_applied) > 0);

  const form = new FormData();
  form.append('file', new Blob([readSeed('csvtocsvw/example-metadata.json')]), 'example-metadata.json');
  const multi = await post(
    `/createrdfupload${q({ mapping_url: ctx.files.url('/csvw-template-map.yaml'), return_type: 'json-ld' })}`,
    {
      body: form,
    },
  );
  assert.equal(multi.status, 200);
  const m = (await multi.json()) as Record<string, unknown>;
  assert.equal(m.filename, 'example-metadata.jsonld');
  assert.deepEqual([m.num_mappings_applied, m.num_mappings_skipped], [7, 0]);
  assert.ok((await parse(String(m.graph), 'json-ld')).length > 200);

  const missing = await post(
    '/createrdfupload',
    json({ mapping_url: ctx.files.url('/catenax-batch-map.yaml'), data_url: dataUrl }),
  );
  assert.equal(missing.status, 422);
  assert.match(((await missing.json()) as { detail: string }).detail, /data_content/);
});

test('checkmapping: 7/0 for the seed, 0/N for another data type and for $..[*]', async () => {
  const check = async (params: Record<string, string>) => {
    const res = await post(`/checkmapping${q(params)}`);
    assert.equal(res.status, 200);
    return res.json();
  };
  assert.deepEqual(await check({ mapping_url: ctx.files.url('/csvw-template-map.yaml') }), {
    rules_applicable: 7,
    rules_skipped: 0,
  });
  assert.deepEqual(
    await check({
      mapping_url: ctx.files.url('/csvw-template-map.yaml'),
      data_url: ctx.files.url('/batch/Batch.json'),
    }),
    { rules_applicable: 0, rules_skipped: 7 },
  );
  assert.deepEqual(await check({ mapping_url: ctx.files.url('/test_unsupported_iterator.yaml') }), {
    rules_applicable: 0,
    rules_skipped: 1,
  });
  const body = await post('/checkmapping', json({ mapping_url: ctx.files.url('/catenax-batch-map.yaml') }));
  assert.deepEqual(await body.json(), { rules_applicable: 6, rules_skipped: 0 });
});

test('test: per-rule statistics, spec and original field names', async () => {
  const res = await post(`/test${q({ mapping_url: ctx.files.url('/csvw-template-map.yaml') })}`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown> & {
    per_rule_statistics: { rule_name: string; applied: boolean }[];
  };
  for (const key of [
    'per_rule_statistics',
    'logs',
    'triple_count',
    'output_preview',
    'success',
    'num_rules_total',
    'rule_statistics',
    'num_triples_generated',
  ])
    assert.ok(key in body, key);
  assert.equal(body.per_rule_statistics.length, 7);
  assert.ok(body.per_rule_statistics.every((r) => r.applied));
});

test('yarrrmltorml: RML Turtle download that parses; normalizeyarrrml by URL and by upload', async () => {
  const res = await post(`/yarrrmltorml${q({ mapping_url: ctx.files.url('/csvw-template-map.yaml') })}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-disposition') ?? '', /csvw-template-map-rml\.ttl/);
  const rml = await parse(await res.text(), 'turtle');
  assert.ok(
    rml.some(
      (x) =>
        x.object.value === 'http://w3id.org/rml/TriplesMap' ||
        x.object.value === 'http://www.w3.org/ns/r2rml#TriplesMap',
    ),
  );

  const nested = readSeed('rdfconverter/branch-outputs/nested-list-mapping.yaml');
  const expected = readSeed('rdfconverter/branch-outputs/nested-list-mapping.normalized.yaml');
  ctx.files.put('/nested.yaml', nested);
  const byUrl = await post(`/normalizeyarrrml${q({ mapping_url: ctx.files.url('/nested.yaml') })}`);
  assert.equal(byUrl.status, 200);
  assert.equal(await byUrl.text(), expected);
  const form = new FormData();
  form.append('file', new Blob([nested]), 'nested-list-mapping.yaml');
  const byFile = await post('/normalizeyarrrml', { body: form });
  assert.equal(byFile.status, 200);
  assert.equal(await byFile.text(), expected);
});

test('info reports v1.3.3; the OpenAPI document lists every endpoint', async () => {
  const res = await fetch(`${ctx.labld.url}/converter/info`);
  assert.equal(((await res.json()) as { version: string }).version, 'v1.3.3');
  const doc = (await (await fetch(`${ctx.labld.url}/converter/api/openapi.json`)).json()) as {
    paths: Record<string, { post?: { requestBody?: { content: Record<string, unknown> } } }>;
  };
  for (const op of [
    'createrdf',
    'createrdfupload',
    'checkmapping',
    'test',
    'yarrrmltorml',
    'yarrrmltosparql',
    'normalizeyarrrml',
    'rdfvalidator',
  ])
    assert.ok(doc.paths[`/api/${op}`]?.post, op);
  const upload = doc.paths['/api/createrdfupload']!.post!.requestBody!.content;
  assert.deepEqual(Object.keys(upload).sort(), ['application/json', 'multipart/form-data']);
  assert.equal((await fetch(`${ctx.labld.url}/converter/api/docs`)).status, 200);
});

test('rdfvalidator: conformance of a graph against SHACL shapes, by query or JSON body', async () => {
  ctx.files.put('/shapes.ttl', readSeed('rdfconverter/resources/exshacl.ttl'));
  const person = (age: string) =>
    `@prefix foaf: <http://xmlns.com/foaf/0.1/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n<http://example.org/ann> a foaf:Person ${age} .`;
  ctx.files.put('/ok.ttl', person('; foaf:age "30"^^xsd:int'));
  ctx.files.put('/no-age.ttl', person(''));
  const ok = await post(
    `/rdfvalidator${q({ shapes_url: ctx.files.url('/shapes.ttl'), rdf_url: ctx.files.url('/ok.ttl') })}`,
  );
  assert.equal(ok.status, 200);
  const good = (await ok.json()) as Record<string, unknown>;
  assert.equal(good.conforms, true);
  assert.equal(good.valid, 'True');
  assert.match(String(good.conformance_report), /Conforms: True/);
  assert.ok((await parse(String(good.shapes_graph), 'turtle')).length >= 7);

  const bad = await post(
    '/rdfvalidator',
    json({ shapes_url: ctx.files.url('/shapes.ttl'), rdf_url: ctx.files.url('/no-age.ttl') }),
  );
  assert.equal(bad.status, 200);
  const report = (await bad.json()) as Record<string, unknown>;
  assert.equal(report.conforms, false);
  assert.match(
    String(report.conformance_report),
    /Conforms: False\nResults \(1\):\nConstraint Violation in MinCountConstraintComponent/,
  );
  assert.match(String(report.conformance_report), /Focus Node: <http:\/\/example.org\/ann>/);
  const graph = await parse(String(report.report_graph), 'turtle');
  assert.ok(graph.some((x) => x.object.value === 'http://www.w3.org/ns/shacl#MinCountConstraintComponent'));
});

test('yarrrmltosparql: a query download that finds every rule in the joined graph', async () => {
  const res = await post(`/yarrrmltosparql${q({ mapping_url: ctx.files.url('/catenax-batch-map.yaml') })}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-disposition') ?? '', /catenax-batch-map\.sparql/);
  const query = await res.text();
  const joined = (await (
    await post(`/createrdf${q({ mapping_url: ctx.files.url('/catenax-batch-map.yaml') })}`)
  ).json()) as {
    graph: string;
  };
  const store = new Store();
  store.load(joined.graph, { format: 'text/turtle' });
  const rows = store.query(query) as Map<string, { value: string }>[];
  assert.equal(new Set(rows.map((r) => r.get('rule')?.value)).size, 6);
});

test('createrdfupload: an RO-Crate ZIP is read through its ro-crate-metadata.json', async () => {
  ctx.files.put('/crate-map.yaml', CRATE_MAPPING);
  const zip = await writeZip({ 'ro-crate-metadata.json': CRATE_METADATA_TEXT, 'data/run.csv': 'a;b\n1;2\n' });
  const form = new FormData();
  form.append('file', new Blob([readFileSync(zip)]), 'crate.zip');
  const res = await post(`/createrdfupload${q({ mapping_url: ctx.files.url('/crate-map.yaml') })}`, {
    body: form,
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { graph: string; num_mappings_applied: number };
  assert.equal(body.num_mappings_applied, 1);
  const quads = await parse(body.graph, 'turtle');
  assert.ok(
    quads.some((x) => x.predicate.value === 'http://schema.org/name' && x.object.value === 'Tensile test 42'),
  );

  const empty = new FormData();
  empty.append('file', new Blob([readFileSync(await writeZip({ 'x.txt': 'x' }))]), 'plain.zip');
  const refused = await post(`/createrdfupload${q({ mapping_url: ctx.files.url('/crate-map.yaml') })}`, {
    body: empty,
  });
  assert.equal(refused.status, 422);
  assert.match(((await refused.json()) as { detail: string }).detail, /file: the ZIP is no RO-Crate/);
});
