// A guarded fetch may send a method and a body (the remote triple store's SPARQL and Graph
// Store Protocol requests): the body and its type arrive, and a redirect is not followed,
// since a streamed body cannot be sent twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { guardedFetch } from '../../lib/fetch/guarded-fetch.ts';
import { rejectsWith, serve, testPolicy, type TestServer } from './helpers.ts';

let server: TestServer;

before(async () => {
  server = await serve(async (req, res) => {
    if (req.url === '/moved') {
      res.statusCode = 307;
      res.setHeader('location', '/echo');
      res.end();
      return;
    }
    let body = '';
    for await (const chunk of req) body += String(chunk);
    res.end(`${req.method} ${req.headers['content-type'] ?? '-'} ${body}`);
  });
});
after(() => server.close());

test('the method, the body and its content type are sent', async () => {
  const url = `${server.origin}/echo`;
  const sent = await guardedFetch(url, {
    field: 'x',
    policy: testPolicy(),
    method: 'PUT',
    body: Readable.from([Buffer.from('<a> <b> '), Buffer.from('<c> .')]),
    contentType: 'text/turtle',
  });
  assert.equal(await sent.text(), 'PUT text/turtle <a> <b> <c> .');
  const form = await guardedFetch(url, { field: 'x', policy: testPolicy(), method: 'POST', body: 'q=1' });
  assert.equal(await form.text(), 'POST - q=1');
});

test('a request with a body follows no redirect', async () => {
  await rejectsWith(
    guardedFetch(`${server.origin}/moved`, { field: 'x', policy: testPolicy(), method: 'POST', body: 'q=1' }),
    'unreachable',
    'follows no redirect',
  );
});
