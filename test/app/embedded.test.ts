// End-to-end: labld in embedded mode, over real HTTP, as `npm start` runs it.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { startEmbedded, serveOne, type Running } from '../../app/processes.ts';
import { SERVICES } from '../../lib/services.ts';
import { tempDir } from '../support/temp.ts';
import { eventually } from '../support/wait.ts';

const busConfig = () => ({
  transport: 'embedded' as const,
  dataDir: tempDir('labld-e2e-'),
  topicsFile: 'topics.yaml',
});

describe('embedded labld (npm start)', () => {
  let labld: Running;
  before(async () => {
    labld = await startEmbedded({ port: 0, bus: busConfig() });
  });
  after(() => labld.stop());

  test('health, readiness and metrics answer', async () => {
    assert.deepEqual(await (await fetch(`${labld.url}/healthz`)).json(), { status: 'ok' });
    // Ready once every consumer has joined its topics: 503 (saying what is not) until then.
    const ready = await eventually(
      () => fetch(`${labld.url}/readyz`),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(ready.status, 200, await ready.clone().text());
    const metrics = await (await fetch(`${labld.url}/metrics`)).text();
    assert.match(metrics, /labld_http_request_seconds/);
  });

  test('each service answers /info through its request consumer, with the spec fields', async () => {
    const expected: Record<string, string[]> = {
      annotator: ['app_name', 'version', 'config_name', 'server'],
      mapper: ['name', 'version', 'contact', 'mode'],
      converter: ['name', 'version'],
      extractor: ['name', 'version'],
    };
    for (const service of SERVICES) {
      const response = await fetch(`${labld.url}/${service}/info`);
      assert.equal(response.status, 200, service);
      const info = (await response.json()) as Record<string, string>;
      for (const field of expected[service]!)
        assert.equal(typeof info[field], 'string', `${service} ${field}`);
      assert.match(info.version!, /^v\d+\.\d+\.\d+$/);
    }
    const annotator = (await (await fetch(`${labld.url}/annotator/info`)).json()) as Record<string, string>;
    assert.equal(annotator.app_name, 'CSVtoCSVW');
    assert.equal(annotator.version, 'v1.3.5');
  });

  test('each service has an OpenAPI document and an explorer served without a CDN', async () => {
    for (const service of SERVICES) {
      const doc = (await (await fetch(`${labld.url}/${service}/api/openapi.json`)).json()) as {
        openapi: string;
        paths: Record<string, unknown>;
      };
      assert.match(doc.openapi, /^3\.1/);
      assert.ok(
        Object.keys(doc.paths).some((p) => p.endsWith('/info')),
        `${service} documents /info`,
      );
      const page = await fetch(`${labld.url}/${service}/api/docs`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.doesNotMatch(
        html,
        /https?:\/\/(?!localhost|127\.0\.0\.1)/,
        'no external URL in the explorer page',
      );
    }
  });

  test('the catalogue answers at / with a page linking the services', async () => {
    const response = await fetch(`${labld.url}/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /text\/html/);
    const html = await response.text();
    for (const service of SERVICES) assert.ok(html.includes(`/${service}/api/docs`));
  });

  test('unknown paths and methods answer {"detail"} with 404/405', async () => {
    const missing = await fetch(`${labld.url}/annotator/nothing-here`);
    assert.equal(missing.status, 404);
    assert.equal(typeof ((await missing.json()) as { detail: unknown }).detail, 'string');
    const wrong = await fetch(`${labld.url}/annotator/info`, { method: 'POST' });
    assert.equal(wrong.status, 405);
  });

  test('property: random paths, queries and bodies never give a 5xx; 4xx always carry a detail', async () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', ...SERVICES.map((s) => `/${s}`)),
        fc.array(segment, { maxLength: 3 }),
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.option(fc.string({ maxLength: 200 })),
        async (base, segments, query, method, body) => {
          const url = new URL(`${labld.url}${base}/${segments.join('/')}`);
          for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
          const response = await fetch(url, {
            method,
            body: method === 'GET' || body === null ? undefined : body,
            headers: { 'content-type': 'application/json' },
          });
          assert.ok(response.status < 500, `${method} ${url} gave ${response.status}`);
          if (response.status >= 400) {
            const answer = (await response.json()) as { detail: unknown };
            assert.equal(typeof answer.detail, 'string');
          } else {
            await response.arrayBuffer();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('labld serve <one part>', () => {
  test('a service alone answers at its base path and at the root', async () => {
    const annotator = await serveOne('annotator', { port: 0, bus: busConfig() });
    try {
      for (const path of ['/annotator/info', '/info']) {
        const info = (await (await fetch(`${annotator.url}${path}`)).json()) as Record<string, string>;
        assert.equal(info.app_name, 'CSVtoCSVW', path);
      }
      assert.equal((await fetch(`${annotator.url}/mapper/info`)).status, 404, 'other services are not here');
    } finally {
      await annotator.stop();
    }
  });

  test('a consumer group alone serves health and metrics', async () => {
    const consumer = await serveOne('converter-requests', { port: 0, bus: busConfig() });
    try {
      assert.equal((await fetch(`${consumer.url}/readyz`)).status, 200);
      assert.equal((await fetch(`${consumer.url}/metrics`)).status, 200);
    } finally {
      await consumer.stop();
    }
  });

  test("each part's /readyz checks the servers that part needs, and only those", async () => {
    const needs: Record<string, string[]> = {
      'converter-requests': ['bus', 'workers'],
      'catalogue-requests': ['bus', 'workers', 'catalogue-store', 'datastore'],
      'chain-annotate': ['bus', 'workers', 'catalogue-store', 'datastore'],
      'load-triplestore': ['bus', 'catalogue-store', 'triplestore'],
      annotator: ['bus', 'workers'],
    };
    for (const [name, checks] of Object.entries(needs)) {
      const part = await serveOne(name, { port: 0, bus: busConfig() });
      try {
        const ready = await fetch(`${part.url}/readyz`);
        const body = (await ready.json()) as { checks: Record<string, string> };
        assert.equal(ready.status, 200, `${name}: ${JSON.stringify(body)}`);
        // `server`: the process's own (not shutting down).
        assert.deepEqual(Object.keys(body.checks).sort(), ['server', ...checks].sort(), name);
      } finally {
        await part.stop();
      }
    }
  });

  test('chain-forget and the dead-letter collectors run no work, so their processes start no worker pool', async () => {
    for (const name of ['chain-forget', 'chain-dead-letters']) {
      const part = await serveOne(name, { port: 0, bus: busConfig() });
      try {
        const body = (await (await fetch(`${part.url}/readyz`)).json()) as { checks: Record<string, string> };
        assert.deepEqual(
          Object.keys(body.checks).sort(),
          ['bus', 'catalogue-store', 'datastore', 'server'],
          name,
        );
      } finally {
        await part.stop();
      }
    }
  });

  test('an unknown name is refused with the list of names', () => {
    assert.throws(() => serveOne('nonsense', { port: 0, bus: busConfig() }), /annotator-requests/);
  });
});
