// Every error answers {"detail": "…"} with the right status, and never leaks internals.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, postJson, start, type Started } from './support.ts';

describe('gateway kit: error answers', () => {
  let s: Started;
  let base: string;
  before(async () => {
    s = await start({ limits: { body: 1024, upload: 4096 } });
    base = `${s.url}/annotator`;
  });
  after(() => s.close());

  async function expectError(response: Response, status: number, detail: string | RegExp): Promise<void> {
    assert.equal(response.status, status);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = await json(response);
    assert.deepEqual(Object.keys(body), ['detail']);
    if (typeof detail === 'string') assert.equal(body.detail, detail);
    else assert.match(String(body.detail), detail);
  }

  test('422 names the missing field', async () => {
    await expectError(await postJson(`${base}/api/annotate`, {}), 422, 'body.data_url: is required');
  });

  test('422 names a field of the wrong type', async () => {
    await expectError(
      await postJson(`${base}/api/annotate`, { data_url: 5 }),
      422,
      'body.data_url: must be string',
    );
  });

  test('422 for a format violation and for a body that is not an object', async () => {
    await expectError(
      await postJson(`${base}/api/annotate`, { data_url: 'not a url' }),
      422,
      'body.data_url: must match format "uri"',
    );
    await expectError(await postJson(`${base}/api/annotate`, [1, 2]), 422, 'body: must be object');
  });

  test('422 lists the allowed values of an enum query parameter', async () => {
    await expectError(
      await postJson(`${base}/api/annotate?return_type=csv`, { data_url: 'http://example.org/a.csv' }),
      422,
      'query.return_type: must be one of: json-ld, n3, nt, hext, trig, turtle, longturtle, xml',
    );
  });

  test('422 for a path parameter and a query parameter that do not coerce', async () => {
    await expectError(await fetch(`${base}/api/items/abc`), 422, 'path.id: must be integer');
    await expectError(await fetch(`${base}/api/items/1?limit=1000`), 422, 'query.limit: must be <= 100');
  });

  test('422 when a required body is missing', async () => {
    await expectError(await fetch(`${base}/api/annotate`, { method: 'POST' }), 422, 'body: is required');
  });

  test('400 for invalid JSON and for bytes that are not UTF-8', async () => {
    await expectError(await postJson(`${base}/api/annotate`, '{"data_url": '), 400, /^body: invalid JSON/);
    const latin1 = new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]);
    const response = await fetch(`${base}/api/annotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: latin1,
    });
    await expectError(response, 400, 'body: invalid JSON (not UTF-8)');
  });

  test('415 for a body that is not JSON', async () => {
    const response = await fetch(`${base}/api/annotate`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'data_url=x',
    });
    await expectError(response, 415, 'body: expected application/json, got text/plain');
  });

  test('a JSON body without Content-Type and an application/*+json body are read as JSON', async () => {
    const plain = await fetch(`${base}/api/annotate`, {
      method: 'POST',
      body: new TextEncoder().encode(JSON.stringify({ data_url: 'http://example.org/a.csv' })),
    });
    assert.equal(plain.status, 200);
    const ld = await postJson(
      `${base}/api/annotate`,
      { data_url: 'http://example.org/a.csv' },
      {
        'content-type': 'application/ld+json',
      },
    );
    assert.equal(ld.status, 200);
  });

  test('413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ data_url: 'http://example.org/a.csv', pad: 'x'.repeat(2000) });
    await expectError(
      await postJson(`${base}/api/annotate`, big),
      413,
      'body: larger than the limit of 1 KB',
    );
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${base}/api/annotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, 'body: larger than the limit of 1 KB');
  });

  test('404 for an unknown path, inside a gateway and outside every gateway', async () => {
    await expectError(await fetch(`${base}/api/nothing`), 404, 'Not Found');
    await expectError(await fetch(`${s.url}/elsewhere`), 404, 'Not Found');
    await expectError(await fetch(`${s.url}/annotatorx/api/annotate`), 404, 'Not Found');
  });

  test('405 with Allow for a known path and another method', async () => {
    const response = await fetch(`${base}/api/annotate`);
    assert.equal(response.headers.get('allow'), 'POST');
    await expectError(response, 405, 'Method Not Allowed');
    const del = await fetch(`${s.url}/healthz`, { method: 'DELETE' });
    await expectError(del, 405, 'Method Not Allowed');
  });

  test('500 says nothing of the error, and the log has it with the correlation id', async () => {
    const response = await fetch(`${base}/api/fail/throw`, { headers: { 'x-correlation-id': 'boom-1' } });
    const text = await response.clone().text();
    await expectError(response, 500, 'Internal Server Error');
    assert.doesNotMatch(text, /secret|\/srv|at .*\.ts/);
    const logged = s.logs.find((l) => l.correlationId === 'boom-1' && l.msg === 'request failed');
    assert.ok(logged, 'the error is logged');
    assert.match(JSON.stringify(logged.err), /secret internals/);
  });

  test('a DomainError keeps its status and detail (field named in front)', async () => {
    await expectError(await fetch(`${base}/api/fail/client`), 409, 'name: already exists');
  });

  test('a TimeoutError is 504', async () => {
    await expectError(await fetch(`${base}/api/fail/timeout`), 504, 'no reply from annotate within 10 ms');
  });

  test('security headers on answers and errors; no X-Powered-By', async () => {
    for (const response of [await fetch(`${base}/api/download`), await fetch(`${base}/api/fail/throw`)]) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('x-powered-by'), null);
      assert.ok(response.headers.get('x-correlation-id'));
      await response.arrayBuffer();
    }
  });
});
