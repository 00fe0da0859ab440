// The JSON body depth limit through HTTP: a body nesting an extra property 100,000 levels
// deep (issue 11: a 500 from JSON.stringify) is a 422 naming the property and
// LABLD_MAX_DEPTH on the annotator and the mapper; a body at the limit is still served.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  detailOf,
  postJson,
  startAnnotator,
  startSeedServer,
  type Labld,
  type SeedServer,
} from '../annotator/e2e-support.ts';
import { maxDepth } from '../../lib/limits.ts';

const LIMIT = maxDepth();
const DEEP = 100_000;
const objects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const arrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

let labld: Labld;
let files: SeedServer;
let base: string;

before(async () => {
  files = await startSeedServer();
  labld = await startAnnotator();
  base = labld.running.url.replace(/\/$/, '');
});

after(async () => {
  await labld.stop();
  await files.stop();
});

describe('JSON body depth (LABLD_MAX_DEPTH) over HTTP', () => {
  it('/annotator/api/annotate: 100,000 levels of objects or arrays in `x` is a 422 naming x', async () => {
    for (const deep of [objects(DEEP), arrays(DEEP)]) {
      const body = `{"data_url": "${files.base}example.csv", "x": ${deep}}`;
      const reply = await postJson(`${base}/annotator/api/annotate`, body);
      assert.equal(reply.status, 422, reply.text.slice(0, 200));
      assert.equal(detailOf(reply), `x: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
    }
  });

  it('/annotator/api/annotate: a body nested to the limit is annotated', async () => {
    // The body object is level 1, so `x` may hold LIMIT - 1 levels.
    const body = `{"data_url": "${files.base}example.csv", "x": ${arrays(LIMIT - 1)}}`;
    const reply = await postJson(`${base}/annotator/api/annotate`, body);
    assert.equal(reply.status, 200, reply.text.slice(0, 200));
    assert.ok((reply.json() as { tables?: unknown[] }).tables?.length);
    const over = `{"data_url": "${files.base}example.csv", "x": ${arrays(LIMIT)}}`;
    assert.equal((await postJson(`${base}/annotator/api/annotate`, over)).status, 422);
  });

  it('/mapper/api/mapping: a deep `map` value is a 422 naming map', async () => {
    const body =
      `{"data_url": "${files.base}a-metadata.json", "template_url": "${files.base}t.ttl", ` +
      `"map": {"SpecimenID": ${objects(DEEP)}}}`;
    const reply = await postJson(`${base}/mapper/api/mapping`, body);
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.equal(detailOf(reply), `map: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
  });

  it('a deep top-level array body is a 422 naming body', async () => {
    const reply = await postJson(`${base}/mapper/api/mapping`, arrays(DEEP));
    assert.equal(reply.status, 422);
    assert.equal(detailOf(reply), `body: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
  });
});
