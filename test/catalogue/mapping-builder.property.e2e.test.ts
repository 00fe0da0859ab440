// The mapping builder's page and form under any input (issue 28): whatever fields a client
// sends — missing, repeated, unknown, hostile URLs, names no document holds — the answer is the
// page (200), a redirect to a page of this site, or a refusal in 4xx; never a 5xx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../support/fc.ts';
import { startBuilderLabld, type BuilderLabld } from './support/builder-labld.ts';

let lab: BuilderLabld;
let template = '';
let descriptor = '';

before(async () => {
  lab = await startBuilderLabld();
  type Dict = Record<string, unknown>;
  const library = (await lab.call('package_show', { id: 'library' })).resources as Dict[];
  template = String(library[0]!.url);
  const tensile = (await lab.call('package_show', { id: 'tensile' })).resources as Dict[];
  descriptor = String(tensile.find((r) => /\.json(ld)?$/.test(String(r.name)))!.url);
});
after(() => lab.labld.stop());

/** Values a client might send: the right ones, near misses, hostile and random text. */
const value = () =>
  fc.oneof(
    fc.constantFrom(
      'tensile',
      'library',
      'mappings',
      'ForceMeasurement',
      'SpecimenID',
      '',
      'http://127.0.0.1:1/t.ttl',
      'ftp://example.org/t.ttl',
      'not a url',
      'javascript:alert(1)',
      '//evil.example/x',
    ),
    fc.constant(null).map(() => template),
    fc.constant(null).map(() => descriptor),
    fc.constant(null).map(() => lab.csv),
    fc.constant(null).map(() => `${lab.labld.url}/metrics`),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
  );

const key = fc.oneof(
  fc.constantFrom('dataset', 'resource', 'descriptor', 'template', 'template_url', 'shelf', 'name', '_csrf'),
  fc.constantFrom('map.table-1-Standardkraft', 'map.AktuelleProbe0', 'map.', 'map.__proto__', '__proto__'),
  fc.string({ maxLength: 12 }).map((k) => `map.${k}`),
  fc.string({ maxLength: 12 }),
);

const mostly = (right: () => string) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(null).map(right) }, { weight: 1, arbitrary: value() });

/** A form near a right one (each field mostly right), with random pairs added. */
const fields = fc
  .tuple(
    fc.record({
      dataset: mostly(() => 'tensile'),
      resource: mostly(() => lab.csv),
      template: mostly(() => template),
      shelf: mostly(() => 'library'),
      'map.table-1-Standardkraft': mostly(() => 'ForceMeasurement'),
    }),
    fc.array(fc.tuple(key, value()), { maxLength: 6 }),
  )
  .map(([near, extra]) => [...Object.entries(near), ...extra]);

/** The statuses seen, so that a run that only ever met one answer is noticed. */
const seen = { post: new Set<number>(), page: new Set<number>() };

const body = (pairs: [string, string][]) => {
  const form = new URLSearchParams();
  for (const [k, v] of pairs) form.append(k, v);
  return form.toString();
};

test('the form post: a redirect to this site or a 4xx, never a 5xx', async () => {
  const token = lab.people.get('maker')!.token;
  await fc.assert(
    fc.asyncProperty(fields, fc.boolean(), async (pairs, withToken) => {
      const response = await fetch(`${lab.labld.url}/group/mappings/mapping`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          ...(withToken ? { authorization: token } : {}),
        },
        body: body(pairs),
      });
      await response.arrayBuffer();
      seen.post.add(response.status);
      if (response.status === 303) {
        assert.match(response.headers.get('location') ?? '', /^\/(?!\/)/, 'a page of this site');
      } else {
        assert.ok(
          response.status >= 400 && response.status < 500,
          `status ${response.status} for ${body(pairs)}`,
        );
      }
    }),
    { numRuns: 60 },
  );
  assert.ok(
    seen.post.has(303) && [...seen.post].some((s) => s >= 400),
    `statuses: ${[...seen.post].join(', ')}`,
  );
});

test('the page: 200 or a 4xx, never a 5xx', async () => {
  const token = lab.people.get('maker')!.token;
  await fc.assert(
    fc.asyncProperty(fields, async (pairs) => {
      const response = await fetch(`${lab.labld.url}/group/mappings/mapping/new?${body(pairs)}`, {
        headers: { accept: 'text/html', authorization: token },
      });
      await response.arrayBuffer();
      seen.page.add(response.status);
      assert.ok(
        response.status === 200 || (response.status >= 400 && response.status < 500),
        `status ${response.status} for ${body(pairs)}`,
      );
    }),
    { numRuns: 60 },
  );
  assert.ok(
    seen.page.has(200) && [...seen.page].some((s) => s >= 400),
    `statuses: ${[...seen.page].join(', ')}`,
  );
});
