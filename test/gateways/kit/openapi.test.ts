// The OpenAPI document comes from the route definitions; the explorer is served from the
// installed swagger-ui-dist and points at nothing outside this host.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, RETURN_TYPES, sampleGateway, start, type Started } from './support.ts';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every http(s) URL in `text` whose host is not `host`. */
function foreignUrls(text: string, host: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
    .map((m) => m[0])
    .filter((u) => new URL(u).host !== host);
}

describe('gateway kit: OpenAPI document and explorer', () => {
  let s: Started;
  let base: string;
  let doc: Doc;
  before(async () => {
    s = await start();
    base = `${s.url}/annotator`;
    doc = (await json(await fetch(`${base}/api/openapi.json`))) as Doc;
  });
  after(() => s.close());

  test('info and server come from the gateway options and its mount point', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.info, {
      title: 'CSV annotation service',
      version: 'v1.3.5',
      description: 'CSV to CSVW',
    });
    assert.deepEqual(doc.servers, [{ url: '/annotator' }]);
  });

  test('one operation per route definition, with its method, summary and tags', () => {
    const gateway = sampleGateway();
    const operations = Object.entries(doc.paths as Doc).flatMap(([p, methods]) =>
      Object.keys(methods as Doc).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const expected = gateway.routes.map((r) => `${r.method} ${r.path.replace('{path*}', '{path}')}`);
    assert.deepEqual(operations.sort(), expected.sort());
    const annotate = doc.paths['/api/annotate'].post;
    assert.equal(annotate.summary, 'Annotate a CSV reachable by URL');
    assert.deepEqual(annotate.tags, ['annotate']);
    assert.equal(annotate.operationId, 'post_api_annotate');
  });

  test('query parameters with schema, default and required flag; path parameters', () => {
    const annotate = doc.paths['/api/annotate'].post;
    assert.deepEqual(annotate.parameters, [
      {
        name: 'return_type',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: RETURN_TYPES, default: 'json-ld' },
      },
    ]);
    const items = doc.paths['/api/items/{id}'].get;
    assert.deepEqual(items.parameters[0], {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    });
    assert.equal(items.parameters[1].description, 'page size');
    assert.equal(doc.paths['/files/{perm_id}/{path}'].get.parameters[1].name, 'path');
  });

  test('request bodies: JSON schema, optional body, multipart with the file field', () => {
    const annotate = doc.paths['/api/annotate'].post.requestBody;
    assert.equal(annotate.required, true);
    assert.deepEqual(annotate.content['application/json'].schema.required, ['data_url']);
    assert.equal(doc.paths['/api/createrdf'].post.requestBody.required, false);
    const upload = doc.paths['/api/annotate_upload'].post.requestBody.content['multipart/form-data'].schema;
    assert.equal(upload.properties.file.format, 'binary');
    assert.deepEqual(upload.properties.count, { type: 'integer' });
    assert.deepEqual(upload.required, ['file']);
  });

  test('responses as declared, plus 422 with the error shape where input is validated', () => {
    const responses = doc.paths['/api/annotate'].post.responses;
    assert.deepEqual(responses['200'], {
      description: 'The descriptor',
      content: { 'application/ld+json': {} },
    });
    assert.deepEqual(responses['422'].content['application/json'].schema, {
      $ref: '#/components/schemas/Error',
    });
    assert.equal(doc.paths['/api/download'].get.responses['422'], undefined);
    assert.deepEqual(doc.components.schemas.Error.required, ['detail']);
  });

  test('the same gateway at the root announces the root as its server', () => {
    assert.deepEqual(sampleGateway().openapi('').servers, [{ url: '/' }]);
  });

  test('the explorer page loads only assets of this host, with a CSP to match', async () => {
    const response = await fetch(`${base}/api/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const page = await response.text();
    assert.deepEqual(foreignUrls(page, new URL(s.url).host), []);
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(sources.length >= 3);
    for (const source of sources) {
      assert.match(source, /^\/annotator\/api\/docs\//);
      const asset = await fetch(`${s.url}${source}`);
      assert.equal(asset.status, 200, source);
      await asset.arrayBuffer();
    }
  });

  test('swagger-ui assets come from the package with their types; the init script points at our document', async () => {
    const bundle = await fetch(`${base}/api/docs/swagger-ui-bundle.js`);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.ok(Number(bundle.headers.get('content-length')) > 100_000);
    assert.match(await bundle.text(), /SwaggerUIBundle/);
    const css = await fetch(`${base}/api/docs/swagger-ui.css`);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    await css.arrayBuffer();
    const init = await (await fetch(`${base}/api/docs/init.js`)).text();
    assert.match(init, /"\/annotator\/api\/openapi\.json"/);
    assert.match(init, /validatorUrl: null/);
    assert.deepEqual(foreignUrls(init, new URL(s.url).host), []);
  });

  test('only the listed assets are served', async () => {
    for (const name of ['package.json', '..%2Fpackage.json', 'index.html', 'oauth2-redirect.html']) {
      const response = await fetch(`${base}/api/docs/${name}`);
      assert.equal(response.status, 404, name);
      assert.deepEqual(await response.json(), { detail: 'Not Found' });
    }
  });
});
