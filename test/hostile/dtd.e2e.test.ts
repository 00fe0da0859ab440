// Issue 11: DTDs in XML are refused entirely — internal entities (billion laughs: 10^9 "lol"s
// from a few hundred bytes) and external entities (a file or URL read into the document) alike.
// The refusal is a 4xx whose detail names the DTD, while labld stays responsive; an external
// entity is never fetched and its content never answered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serve, type TestServer } from '../support/file-server.ts';
import {
  assertRefused,
  getUrl,
  postJson,
  startHostile,
  underAttack,
  type Answer,
  type Hostile,
} from './harness.ts';
import { billionLaughs, externalEntity } from './inputs.ts';
import { DATA_TTL, SHAPES_TTL } from './documents.ts';

const DTD_WORDS = [/\b(DTD|DOCTYPE)\b/i];
const SECRET = 'hostile-secret-5f0c1a';
let h: Hostile;
/** Where the external entity points: counts its fetches. */
let secretServer: TestServer;
let secretFetches = 0;
const url: Record<string, string> = {};

before(async () => {
  h = await startHostile();
  secretServer = await serve((_req, res) => {
    secretFetches++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET);
  });
  url['laughs'] = h.files.put('/dtd/laughs.rdf', billionLaughs(), 'application/rdf+xml');
  url['external'] = h.files.put(
    '/dtd/external.rdf',
    externalEntity(`${secretServer.origin}/secret.txt`),
    'application/rdf+xml',
  );
  url['file'] = h.files.put('/dtd/file.rdf', externalEntity('file:///etc/passwd'), 'application/rdf+xml');
  url['shapes'] = h.files.put('/ok/shapes.ttl', SHAPES_TTL, 'text/turtle');
  url['data'] = h.files.put('/ok/data.ttl', DATA_TTL, 'text/turtle');
});
after(async () => {
  await h?.stop();
  await secretServer?.close();
});

const types = (document: string) => () =>
  getUrl(`${h.base}/mapper/api/types?url=${encodeURIComponent(url[document]!)}`);
const validate = (shapes: string, data: string) => () =>
  postJson(
    `${h.base}/converter/api/rdfvalidator`,
    JSON.stringify({ shapes_url: url[shapes], rdf_url: url[data] }),
  );

const cases: [string, () => Promise<Answer>][] = [
  ['billion laughs: GET /mapper/api/types (url)', types('laughs')],
  ['billion laughs: POST /converter/api/rdfvalidator (shapes_url)', validate('laughs', 'data')],
  ['billion laughs: POST /converter/api/rdfvalidator (rdf_url)', validate('shapes', 'laughs')],
  ['external entity (http): GET /mapper/api/types (url)', types('external')],
  ['external entity (http): POST /converter/api/rdfvalidator (rdf_url)', validate('shapes', 'external')],
  ['external entity (file): GET /mapper/api/types (url)', types('file')],
  ['external entity (file): POST /converter/api/rdfvalidator (rdf_url)', validate('shapes', 'file')],
];

describe('RDF/XML with a DTD', () => {
  for (const [label, send] of cases) {
    it(`${label}: refused naming the DTD, nothing expanded, labld responsive`, async () => {
      await underAttack(h, label, send, (reply) => {
        assertRefused(label, reply, DTD_WORDS);
        assert.ok(
          !reply.text.includes(SECRET) && !reply.text.includes('root:'),
          `${label}: no entity content answered`,
        );
        assert.ok(!reply.text.includes('lollollol'), `${label}: no entity expanded`);
        assert.equal(secretFetches, 0, `${label}: the external entity was never fetched`);
      });
    });
  }
});
