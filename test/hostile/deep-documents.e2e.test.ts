// Issue 11, the classes behind findings 1 and 2: JSON-LD documents (template, shapes, data) and
// YARRRML mappings (YAML, flow and block style) nested 50,000 levels, given by URL. Each must
// be refused with a 413/422 naming the depth limit and its variable, while labld stays
// responsive.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DEPTH_WORDS,
  LIMIT_STATUSES,
  assertRefused,
  getUrl,
  parseTurtle,
  postJson,
  startHostile,
  underAttack,
  type Answer,
  type Hostile,
} from './harness.ts';
import { deepJsonLd, deepYamlBlock, deepYamlFlow } from './inputs.ts';
import { DATA_TTL, EX, SHAPES_TTL, yarrrmlMapping } from './documents.ts';

const DEPTH = 50_000;
let h: Hostile;
const url: Record<string, string> = {};

before(async () => {
  h = await startHostile();
  url['jsonld'] = h.files.put('/deep/nested.jsonld', deepJsonLd(DEPTH), 'application/ld+json');
  url['flow'] = h.files.put('/deep/flow.yaml', deepYamlFlow(DEPTH), 'application/x-yaml');
  url['block'] = h.files.put('/deep/block.yaml', deepYamlBlock(DEPTH), 'application/x-yaml');
  url['shapes'] = h.files.put('/ok/shapes.ttl', SHAPES_TTL, 'text/turtle');
  url['data'] = h.files.put('/ok/data.ttl', DATA_TTL, 'text/turtle');
  url['mapping'] = h.files.put('/ok/map.yaml', yarrrmlMapping(url['jsonld']), 'application/x-yaml');
});
after(() => h?.stop());

const post = (path: string, body: Record<string, unknown>) => () =>
  postJson(`${h.base}${path}`, JSON.stringify(body));

function refusedWhileResponsive(label: string, send: () => () => Promise<Answer>): void {
  it(`${label}: refused naming the depth limit, labld responsive`, async () => {
    await underAttack(h, label, send(), (reply) => assertRefused(label, reply, DEPTH_WORDS, LIMIT_STATUSES));
  });
}

describe(`JSON-LD nested ${DEPTH} levels, by URL`, () => {
  refusedWhileResponsive(
    'template: GET /mapper/api/types (url)',
    () => () => getUrl(`${h.base}/mapper/api/types?url=${encodeURIComponent(url['jsonld']!)}`),
  );
  refusedWhileResponsive('template: POST /mapper/api/mapping (template_url)', () =>
    post('/mapper/api/mapping', {
      data_url: h.seedDescriptorUrl,
      template_url: url['jsonld'],
      map: { Kraft: `${EX}n0` },
    }),
  );
  refusedWhileResponsive('shapes: POST /converter/api/rdfvalidator (shapes_url)', () =>
    post('/converter/api/rdfvalidator', { shapes_url: url['jsonld'], rdf_url: url['data'] }),
  );
  refusedWhileResponsive('data: POST /converter/api/rdfvalidator (rdf_url)', () =>
    post('/converter/api/rdfvalidator', { shapes_url: url['shapes'], rdf_url: url['jsonld'] }),
  );
  refusedWhileResponsive('data: POST /annotator/api/rdf (metadata_url)', () =>
    post('/annotator/api/rdf', { metadata_url: url['jsonld'], csv_url: h.seedCsvUrl }),
  );
  // A mapping's data is read with JSONPath, not as JSON-LD: here a complete graph is an
  // answer too (the mapping's one triple, the whole Turtle parsing).
  it('data: POST /converter/api/createrdf (data_url): refused naming the depth limit or complete', async () => {
    const label = 'data: POST /converter/api/createrdf (data_url)';
    await underAttack(
      h,
      label,
      post('/converter/api/createrdf', { mapping_url: url['mapping'], data_url: url['jsonld'] }),
      (reply) => {
        if (reply.status !== 200) return void assertRefused(label, reply, DEPTH_WORDS, LIMIT_STATUSES);
        const { graph } = JSON.parse(reply.text) as { graph: string };
        const quads = parseTurtle(label, graph);
        assert.ok(
          quads.some((q) => q.subject.value === `${EX}thing` && q.object.value === `${EX}Thing`),
          `${label}: the mapping's triple in the graph`,
        );
      },
    );
  });
});

for (const style of ['flow', 'block'] as const) {
  describe(`a YARRRML mapping nested ${DEPTH} levels (${style} style), by URL`, () => {
    for (const path of [
      '/converter/api/createrdf',
      '/converter/api/checkmapping',
      '/converter/api/yarrrmltorml',
    ]) {
      refusedWhileResponsive(`POST ${path} (mapping_url)`, () =>
        post(path, { mapping_url: url[style], data_url: h.seedDescriptorUrl }),
      );
    }
  });
}
