// Correlation ids and the one log line per request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { json, postJson, start, type Started } from './support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('gateway kit: correlation id and request log', () => {
  let s: Started;
  before(async () => {
    s = await start();
  });
  after(() => s.close());

  test('a safe incoming x-correlation-id is echoed and reaches the handler', async () => {
    const response = await postJson(
      `${s.url}/annotator/api/annotate`,
      { data_url: 'http://example.org/a.csv' },
      { 'x-correlation-id': 'req-42.a:b' },
    );
    assert.equal(response.headers.get('x-correlation-id'), 'req-42.a:b');
    assert.equal((await json(response)).correlationId, 'req-42.a:b');
  });

  test('x-request-id is accepted when x-correlation-id is absent', async () => {
    const response = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'abc123' } });
    assert.equal(response.headers.get('x-correlation-id'), 'abc123');
    await response.arrayBuffer();
  });

  test('an unsafe or missing id is replaced by a fresh UUID', async () => {
    for (const headers of [
      {},
      { 'x-correlation-id': 'a b' },
      { 'x-correlation-id': 'x'.repeat(200) },
      { 'x-request-id': '{"json":1}' },
    ]) {
      const response = await fetch(`${s.url}/healthz`, { headers });
      assert.match(response.headers.get('x-correlation-id') ?? '', UUID);
      await response.arrayBuffer();
    }
  });

  test('one log line per request with method, path, status, duration, route, service and correlation id', async () => {
    const response = await fetch(`${s.url}/annotator/api/items/3?limit=2`, {
      headers: { 'x-correlation-id': 'log-1' },
    });
    await response.arrayBuffer();
    await delay(20);
    const lines = s.logs.filter((l) => l.correlationId === 'log-1' && l.msg === 'request');
    assert.equal(lines.length, 1);
    const line = lines[0] as Record<string, unknown>;
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/annotator/api/items/3');
    assert.equal(line.status, 200);
    assert.equal(line.service, 'annotator');
    assert.equal(line.route, '/api/items/{id}');
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(line.level, 30);
  });

  test('errors get their line too, with the final status; probes log at debug', async () => {
    await (
      await fetch(`${s.url}/annotator/api/fail/client`, { headers: { 'x-correlation-id': 'log-2' } })
    ).arrayBuffer();
    await (await fetch(`${s.url}/healthz`, { headers: { 'x-correlation-id': 'log-3' } })).arrayBuffer();
    await delay(20);
    const error = s.logs.find((l) => l.correlationId === 'log-2' && l.msg === 'request');
    assert.equal(error?.status, 409);
    const probe = s.logs.find((l) => l.correlationId === 'log-3' && l.msg === 'request');
    assert.equal(probe?.level, 20);
  });
});
