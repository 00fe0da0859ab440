// Issue 11, finding 1: 50,000 nested rdf:Description/property elements (3.8 MB of RDF/XML) by
// URL froze the whole process for 434 s. Every endpoint that reads an RDF document by URL must
// refuse it with a 413/422 naming the depth limit and its variable while labld stays responsive.
import { after, before, describe, it } from 'node:test';
import {
  DEPTH_WORDS,
  LIMIT_STATUSES,
  assertRefused,
  getUrl,
  postJson,
  startHostile,
  underAttack,
  type Hostile,
} from './harness.ts';
import { deepRdfXml } from './inputs.ts';
import { DATA_TTL, EX, SHAPES_TTL } from './documents.ts';

const DEPTH = 50_000;
let h: Hostile;
let deepUrl: string;
let shapesUrl: string;
let dataUrl: string;

before(async () => {
  h = await startHostile();
  deepUrl = h.files.put('/deep/nested.rdf', deepRdfXml(DEPTH), 'application/rdf+xml');
  shapesUrl = h.files.put('/ok/shapes.ttl', SHAPES_TTL, 'text/turtle');
  dataUrl = h.files.put('/ok/data.ttl', DATA_TTL, 'text/turtle');
});
after(() => h?.stop());

describe(`RDF/XML nested ${DEPTH} levels, by URL`, () => {
  const cases: [string, () => Promise<Awaited<ReturnType<typeof getUrl>>>][] = [
    [
      'GET /mapper/api/types (url)',
      () => getUrl(`${h.base}/mapper/api/types?url=${encodeURIComponent(deepUrl)}`),
    ],
    [
      'GET /mapper/api/entities (url)',
      () => getUrl(`${h.base}/mapper/api/entities?url=${encodeURIComponent(deepUrl)}`),
    ],
    [
      'POST /mapper/api/mapping (template_url)',
      () =>
        postJson(
          `${h.base}/mapper/api/mapping`,
          JSON.stringify({ data_url: h.seedDescriptorUrl, template_url: deepUrl, map: { Kraft: `${EX}n0` } }),
        ),
    ],
    [
      'POST /converter/api/rdfvalidator (shapes_url)',
      () =>
        postJson(
          `${h.base}/converter/api/rdfvalidator`,
          JSON.stringify({ shapes_url: deepUrl, rdf_url: dataUrl }),
        ),
    ],
    [
      'POST /converter/api/rdfvalidator (rdf_url)',
      () =>
        postJson(
          `${h.base}/converter/api/rdfvalidator`,
          JSON.stringify({ shapes_url: shapesUrl, rdf_url: deepUrl }),
        ),
    ],
  ];
  for (const [label, send] of cases) {
    it(`${label}: refused naming the depth limit, labld responsive`, async () => {
      await underAttack(h, label, send, (reply) => assertRefused(label, reply, DEPTH_WORDS, LIMIT_STATUSES));
    });
  }
});
