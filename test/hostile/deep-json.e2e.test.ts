// Issue 11, finding 2: an extra JSON property nested 100,000 levels (objects or arrays) beside
// the fields an endpoint reads gave a 500 (RangeError in JSON.stringify of the claim check).
// Each JSON endpoint of the finding must refuse it with a 413/422 naming the depth limit and
// its variable, while labld stays responsive.
import { after, before, describe, it } from 'node:test';
import {
  DEPTH_WORDS,
  LIMIT_STATUSES,
  assertRefused,
  bodyWith,
  postJson,
  startHostile,
  underAttack,
  type Hostile,
} from './harness.ts';
import { deepJson } from './inputs.ts';
import { DATA_TTL, EX, yarrrmlMapping } from './documents.ts';

const DEPTH = 100_000;
let h: Hostile;
let templateUrl: string;
let mappingUrl: string;

before(async () => {
  h = await startHostile();
  templateUrl = h.files.put('/ok/template.ttl', DATA_TTL, 'text/turtle');
  mappingUrl = h.files.put('/ok/map.yaml', yarrrmlMapping('data.json'), 'application/x-yaml');
});
after(() => h?.stop());

/** Each endpoint of the finding with the fields it reads, valid. */
const endpoints: [string, () => Record<string, unknown>][] = [
  ['/annotator/api/annotate', () => ({ data_url: h.seedCsvUrl })],
  ['/annotator/api/rdf', () => ({ metadata_url: h.seedDescriptorUrl })],
  [
    '/mapper/api/mapping',
    () => ({ data_url: h.seedDescriptorUrl, template_url: templateUrl, map: { Kraft: `${EX}one` } }),
  ],
  [
    '/converter/api/createrdfupload',
    () => ({ mapping_url: mappingUrl, data_url: 'http://example.org/data.json', data_content: '{"a": 1}' }),
  ],
];

for (const shape of ['object', 'array'] as const) {
  describe(`an extra property nested ${DEPTH} levels (${shape}s)`, () => {
    for (const [path, fields] of endpoints) {
      it(`POST ${path}: refused naming the depth limit, labld responsive`, async () => {
        const label = `POST ${path} with x: ${shape}s × ${DEPTH}`;
        const body = bodyWith(fields(), 'x', deepJson(DEPTH, shape));
        await underAttack(
          h,
          label,
          () => postJson(`${h.base}${path}`, body),
          (reply) => assertRefused(label, reply, DEPTH_WORDS, LIMIT_STATUSES),
        );
      });
    }
  });
}
