// Issue 11, "Done when": random nesting depths (0..200,000, objects and arrays mixed) and sizes
// sent to every JSON endpoint of the four services — enumerated from each service's OpenAPI
// document, so that a new endpoint is covered without editing this file. Never a 5xx; every
// 4xx is JSON with a string `detail`.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { SERVICES, services } from '../../lib/services.ts';
import { bodyWith, detailOf, getUrl, postJson, startHostile, type Answer } from './harness.ts';
import { deepJson } from './inputs.ts';
import { DATA_TTL, SHAPES_TTL, yarrrmlMapping } from './documents.ts';

const MAX_DEPTH = 200_000;
const RUNS = 10;

interface JsonEndpoint {
  /** `POST /annotator/api/annotate` */
  name: string;
  url: string;
  schema: { properties?: Record<string, { type?: unknown; format?: string }>; required?: string[] };
}

const h = await startHostile();
after(() => h.stop());

/** Every operation of every service whose request body may be JSON. */
async function jsonEndpoints(): Promise<JsonEndpoint[]> {
  const found: JsonEndpoint[] = [];
  for (const service of SERVICES) {
    const basePath = services[service].basePath;
    const reply = await getUrl(`${h.base}${basePath}/api/openapi.json`);
    assert.equal(reply.status, 200, `${service}: its OpenAPI document`);
    const document = JSON.parse(reply.text) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
      >;
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const json = operation.requestBody?.content?.['application/json'];
        if (!json) continue;
        assert.ok(!path.includes('{'), `${basePath}${path}: a JSON endpoint without path parameters`);
        found.push({
          name: `${method.toUpperCase()} ${basePath}${path}`,
          url: `${h.base}${basePath}${path}`,
          schema: (json.schema ?? {}) as JsonEndpoint['schema'],
        });
      }
    }
  }
  return found;
}

const documents = {
  shapes: h.files.put('/ok/shapes.ttl', SHAPES_TTL, 'text/turtle'),
  data: h.files.put('/ok/data.ttl', DATA_TTL, 'text/turtle'),
  mapping: h.files.put('/ok/map.yaml', yarrrmlMapping(h.seedDescriptorUrl), 'application/x-yaml'),
};

/** A value each field accepts: its document when the field's name says which, else the seed CSV. */
function validValue(name: string, schema: { type?: unknown; format?: string }): unknown {
  if (schema.format === 'uri') {
    if (name.startsWith('mapping')) return documents.mapping;
    if (name.startsWith('metadata')) return h.seedDescriptorUrl;
    if (name.startsWith('shapes')) return documents.shapes;
    if (name.startsWith('rdf') || name.startsWith('template')) return documents.data;
    return h.seedCsvUrl;
  }
  if (schema.type === 'object') return {};
  if (schema.type === 'array') return [];
  if (schema.type === 'boolean') return false;
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  return 'Probe,Kraft\nA1,12.5\n';
}

const endpoints = await jsonEndpoints();

it('the enumeration finds the JSON endpoints of issue 11 among the others', () => {
  const names = endpoints.map((e) => e.name);
  for (const name of [
    'POST /annotator/api/annotate',
    'POST /annotator/api/rdf',
    'POST /mapper/api/mapping',
    'POST /converter/api/createrdfupload',
  ]) {
    assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  }
});

const nesting = fc.record({
  depth: fc.integer({ min: 0, max: MAX_DEPTH }),
  shape: fc.constantFrom('object' as const, 'array' as const, 'mixed' as const),
  /** Where the nested value goes: beside the fields, instead of one of them, or as the body. */
  place: fc.constantFrom('extra' as const, 'field' as const, 'body' as const),
  /** Size: strings at the innermost level, and their length (up to ~2 MB in all). */
  width: fc.integer({ min: 0, max: 200 }),
  length: fc.integer({ min: 0, max: 10_000 }),
  key: fc.string({ minLength: 1, maxLength: 8 }),
});
type Nesting = typeof nesting extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(endpoint: JsonEndpoint, n: Nesting): string {
  const properties = endpoint.schema.properties ?? {};
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, s]) => [name, validValue(name, s)]),
  );
  const leaf = JSON.stringify(Array.from({ length: n.width }, (_, i) => String(i % 10).repeat(n.length)));
  const value = deepJson(n.depth, n.shape, leaf);
  if (n.place === 'body') return value;
  const names = Object.keys(fields);
  if (n.place === 'field' && names.length > 0) {
    const replaced = names[n.depth % names.length]!;
    delete fields[replaced];
    return bodyWith(fields, replaced, value);
  }
  return bodyWith(fields, n.key in fields ? `${n.key}_` : n.key, value);
}

/** Never a 5xx; a 4xx is JSON with a string detail. */
function judge(endpoint: JsonEndpoint, n: Nesting, reply: Answer): void {
  const what = `${endpoint.name} (depth ${n.depth}, ${n.shape}, ${n.place}, ${n.width}×${n.length})`;
  assert.ok(reply.status < 500, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
  if (reply.status >= 400) detailOf(what, reply);
}

describe(`random nesting (0..${MAX_DEPTH}) and sizes on every JSON endpoint`, () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.name}: never a 5xx, a 4xx names its problem in JSON`, async () => {
      await fc.assert(
        fc.asyncProperty(nesting, async (n) =>
          judge(endpoint, n, await postJson(endpoint.url, bodyOf(endpoint, n))),
        ),
        {
          numRuns: RUNS,
          // Every run: the deepest objects beside the fields, arrays as the body, and a shallow
          // value large enough to travel by claim check.
          examples: [
            [{ depth: 1, shape: 'mixed', place: 'extra', width: 200, length: 10_000, key: 'x' }],
            [{ depth: MAX_DEPTH, shape: 'object', place: 'extra', width: 0, length: 0, key: 'x' }],
            [{ depth: MAX_DEPTH, shape: 'array', place: 'body', width: 1, length: 300_000, key: 'x' }],
          ],
        },
      );
    });
  }
});
