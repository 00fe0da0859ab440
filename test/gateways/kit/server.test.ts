// Mounting: every gateway at its base path, the catalogue at `/`, and in single-service mode
// the service at its base path and at `/`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp, createGateway, route } from '../../../gateways/kit/index.ts';
import { json, sampleGateway, start } from './support.ts';

function catalogue() {
  return createGateway({
    service: 'catalogue',
    basePath: '/',
    title: 'Catalogue',
    version: '1.0.0',
    routes: [
      route({
        method: 'GET',
        path: '/{page*}',
        summary: 'catch-all page of the catalogue',
        responses: { 200: { description: 'page' } },
        handler: ({ params }) => ({ json: { catalogue: params.page } }),
      }),
    ],
  });
}

describe('gateway kit: composing gateways', () => {
  test('the embedded server: services at their base paths, the catalogue at the root never shadows them', async () => {
    const s = await start({
      gateways: [sampleGateway(), sampleGateway({ service: 'mapper' }), catalogue()],
    });
    try {
      assert.equal((await fetch(`${s.url}/annotator/api/items/1`)).status, 200);
      assert.equal((await fetch(`${s.url}/mapper/api/items/1`)).status, 200);
      assert.deepEqual(await json(await fetch(`${s.url}/dataset/7`)), { catalogue: 'dataset/7' });
      // Unknown below a service: that service's 404, not the catalogue's catch-all.
      assert.equal((await fetch(`${s.url}/annotator/dataset/7`)).status, 404);
      const docs = (await json(await fetch(`${s.url}/mapper/api/openapi.json`))) as { servers: unknown };
      assert.deepEqual(docs.servers, [{ url: '/mapper' }]);
      const rootDocs = await fetch(`${s.url}/api/docs`);
      assert.match(rootDocs.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await rootDocs.text(), /Catalogue – API/);
      assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
    } finally {
      await s.close();
    }
  });

  test('single-service mode: the service answers at its base path and at the root', async () => {
    const s = await start({ gateways: [sampleGateway()], rootAlias: 'annotator' });
    try {
      for (const prefix of ['/annotator', '']) {
        const response = await fetch(`${s.url}${prefix}/api/items/2`);
        assert.equal(response.status, 200, prefix);
        await response.arrayBuffer();
      }
      const rootDoc = (await json(await fetch(`${s.url}/api/openapi.json`))) as { servers: unknown };
      assert.deepEqual(rootDoc.servers, [{ url: '/' }]);
      const page = await (await fetch(`${s.url}/api/docs`)).text();
      assert.match(page, /href="\/api\/docs\/swagger-ui\.css"/);
      assert.equal((await fetch(`${s.url}/metrics`)).status, 200);
    } finally {
      await s.close();
    }
  });

  test('a parameter with an extension: the extension picks the route, the parameter is the rest', async () => {
    const answer = (ext: string) =>
      route<unknown, unknown, { id: string }>({
        method: 'GET',
        path: `/dataset/{id}.${ext}`,
        summary: ext,
        responses: { 200: { description: 'd' } },
        handler: ({ params }) => ({ json: { id: params.id, ext } }),
      });
    const gateway = createGateway({
      service: 'catalogue',
      basePath: '/',
      title: 'Catalogue',
      version: '1.0.0',
      routes: [answer('ttl'), answer('rdf')],
    });
    const s = await start({ gateways: [gateway] });
    try {
      assert.deepEqual(await json(await fetch(`${s.url}/dataset/a.b.ttl`)), { id: 'a.b', ext: 'ttl' });
      assert.deepEqual(await json(await fetch(`${s.url}/dataset/x.rdf`)), { id: 'x', ext: 'rdf' });
      assert.equal((await fetch(`${s.url}/dataset/x.exe`)).status, 404);
      assert.equal((await fetch(`${s.url}/dataset/.ttl`)).status, 404);
    } finally {
      await s.close();
    }
  });

  test('configuration mistakes fail at startup, not per request', () => {
    const base = { service: 'x', title: 't', version: '1' };
    const ok = {
      method: 'GET' as const,
      summary: 's',
      responses: { 200: { description: 'd' } },
      handler: () => ({ status: 204 }),
    };
    assert.throws(
      () => createGateway({ ...base, routes: [route({ ...ok, path: 'no-slash' })] }),
      /not a plain template/,
    );
    assert.throws(
      () => createGateway({ ...base, routes: [route({ ...ok, path: '/a' }), route({ ...ok, path: '/a' })] }),
      /defined twice/,
    );
    assert.throws(
      () =>
        createGateway({
          ...base,
          routes: [
            route({ ...ok, path: '/a', query: { type: 'object', properties: { n: { type: 'integr' } } } }),
          ],
        }),
      /GET \/a: query schema: schema is invalid/,
    );
    // A parameter may carry an extension (`/dataset/{id}.ttl`, ckanext-dcat's form), nothing more.
    for (const path of ['/a/{id}.{ext}', '/a/{id}x', '/a/x{id}']) {
      assert.throws(
        () => createGateway({ ...base, routes: [route({ ...ok, path })] }),
        /not a plain template/,
      );
    }
    assert.throws(() => createGateway({ ...base, basePath: 'x/', routes: [] }), /invalid base path/);
    assert.throws(
      () => createApp({ gateways: [sampleGateway(), sampleGateway()] }),
      /two gateways are mounted at "\/annotator"/,
    );
    assert.throws(
      () => createApp({ gateways: [sampleGateway()], rootAlias: 'mapper' }),
      /no gateway named mapper/,
    );
    assert.throws(
      () => createApp({ gateways: [sampleGateway(), catalogue()], rootAlias: 'annotator' }),
      /two gateways are mounted at "\/"/,
    );
  });
});
