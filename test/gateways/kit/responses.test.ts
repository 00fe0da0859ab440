// Results: JSON, downloads (Content-Disposition), files from disk, status only, headers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGateway, route } from '../../../gateways/kit/index.ts';
import { start, type Started } from './support.ts';

describe('gateway kit: results', () => {
  let s: Started;
  let base: string;
  before(async () => {
    s = await start();
    base = `${s.url}/annotator`;
  });
  after(() => s.close());

  test('a download has its content type and an attachment file name', async () => {
    const response = await fetch(`${base}/api/download`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="table.csv"');
    assert.equal(await response.text(), 'a,b\n1,2\n');
  });

  test('a file from disk is streamed with its length; a non-ASCII name gets filename*', async () => {
    const response = await fetch(`${base}/api/download-file`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/turtle; charset=utf-8');
    assert.equal(response.headers.get('content-length'), '14');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="graph _.ttl"; filename*=UTF-8''graph%20%C3%BC.ttl`,
    );
    assert.equal(await response.text(), '<a> <b> <c> .\n');
  });

  test('a status-only answer has an empty body', async () => {
    const response = await fetch(`${base}/api/accept`, { method: 'POST' });
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
  });

  test('headers a handler set for a download are dropped when the request fails', async () => {
    const missing = await start({
      gateways: [
        createGateway({
          service: 'converter',
          title: 'x',
          version: '1',
          routes: [
            route({
              method: 'GET',
              path: '/gone',
              summary: 'a file that does not exist',
              responses: { 200: { description: 'never' } },
              handler: () => ({
                body: { path: '/nonexistent/file.ttl' },
                contentType: 'text/turtle',
                filename: 'g.ttl',
              }),
            }),
          ],
        }),
      ],
    });
    try {
      const response = await fetch(`${missing.url}/converter/gone`);
      assert.equal(response.status, 500);
      assert.equal(response.headers.get('content-disposition'), null);
      assert.deepEqual(await response.json(), { detail: 'Internal Server Error' });
    } finally {
      await missing.close();
    }
  });

  test('JSON of any kind: a bare string stays JSON, redirects go where the handler says', async () => {
    const other = await start({
      gateways: [
        createGateway({
          service: 'catalogue',
          basePath: '/',
          title: 'catalogue',
          version: '1',
          routes: [
            route({
              method: 'GET',
              path: '/name',
              summary: 'a string',
              responses: { 200: { description: 'ok' } },
              handler: () => ({ json: 'just a string', headers: { 'Cache-Control': 'no-store' } }),
            }),
            route({
              method: 'POST',
              path: '/dataset',
              summary: 'redirect after a form',
              responses: { 303: { description: 'see the dataset' } },
              handler: () => ({ redirect: '/dataset/42' }),
            }),
          ],
        }),
      ],
    });
    try {
      const response = await fetch(`${other.url}/name`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(await response.json(), 'just a string');
      const redirect = await fetch(`${other.url}/dataset`, { method: 'POST', redirect: 'manual' });
      assert.equal(redirect.status, 303);
      assert.equal(redirect.headers.get('location'), '/dataset/42');
    } finally {
      await other.close();
    }
  });
});
