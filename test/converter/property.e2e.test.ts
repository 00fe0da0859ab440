// Property: whatever the request — random query strings, JSON bodies, mapping texts mutated
// from the seed or made up — every converter endpoint answers 2xx, or a 4xx with a
// `{"detail": "…"}`; never a 5xx, and the process stays up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import { useConverter } from './context.ts';

const ctx = useConverter();

const ENDPOINTS = [
  'createrdf',
  'createrdfupload',
  'checkmapping',
  'test',
  'yarrrmltorml',
  'normalizeyarrrml',
  'rdfvalidator',
  'yarrrmltosparql',
];
const RUNS = 25;

async function answersWell(res: Response): Promise<void> {
  const text = await res.text();
  assert.ok(res.status < 500, `${res.status} ${text.slice(0, 300)}`);
  if (res.status >= 400) {
    const body = JSON.parse(text) as { detail?: unknown };
    assert.equal(typeof body.detail, 'string', text);
  }
}

/** A mapping text: the seed's with random lines dropped, duplicated or garbled, or made up. */
const mappingText = () =>
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom('/csvw-template-map.yaml', '/catenax-batch-map.yaml'),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.string({ maxLength: 12 }),
      )
      .map(([path, cuts, junk]) => {
        const lines = ctx.files.get(path)!.body.toString('utf8').split('\n');
        for (const cut of cuts) lines.splice(cut % lines.length, 1, junk);
        return lines.join('\n');
      }),
    fc.string({ maxLength: 200 }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );

const urlValue = () =>
  fc.oneof(
    fc.constantFrom(
      ctx.files.url('/csvw-template-map.yaml'),
      ctx.files.url('/catenax-batch-map.yaml'),
      ctx.files.url('/random.yaml'),
      ctx.files.url('/batch/Batch.json'),
      ctx.files.url('/examples/example-metadata.json'),
      ctx.files.url('/missing'),
      'urn:uuid:1',
      'not a url',
      '',
    ),
    // Random paths on the local server (no real network in tests).
    fc.webPath().map((path) => `${ctx.files.origin}${path}`),
    fc.string({ maxLength: 20 }),
  );

const fields = () =>
  fc.record(
    {
      mapping_url: urlValue(),
      data_url: urlValue(),
      shapes_url: urlValue(),
      rdf_url: urlValue(),
      data_content: fc.oneof(
        fc.string({ maxLength: 50 }),
        fc.constant(ctx.files.get('/batch/Batch.json')!.body.toString('utf8')),
      ),
      return_type: fc.oneof(
        fc.constantFrom('turtle', 'json-ld', 'nt', 'xml', 'hext', 'trig', 'n3', 'longturtle'),
        fc.string({ maxLength: 6 }),
      ),
    },
    { requiredKeys: [] },
  );

for (const endpoint of ENDPOINTS) {
  test(`${endpoint}: random requests get 2xx or a 4xx detail`, async () => {
    await fc.assert(
      fc.asyncProperty(
        mappingText(),
        fields(),
        fc.boolean(),
        fc.jsonValue(),
        async (mapping, given, inBody, junk) => {
          ctx.files.put('/random.yaml', mapping);
          const { return_type, ...rest } = given;
          const query = new URLSearchParams(return_type === undefined ? {} : { return_type });
          let init: RequestInit = { method: 'POST' };
          if (inBody)
            init = { ...init, headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) };
          else for (const [k, v] of Object.entries(rest)) if (k !== 'data_content') query.set(k, v);
          await answersWell(await fetch(`${ctx.api}/${endpoint}?${query}`, init));
          // And a body that is JSON but not an object.
          await answersWell(
            await fetch(`${ctx.api}/${endpoint}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(junk),
            }),
          );
        },
      ),
      { numRuns: RUNS },
    );
    assert.equal((await fetch(`${ctx.labld.url}/converter/info`)).status, 200);
  });
}
