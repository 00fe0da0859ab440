// /healthz, /readyz (registered checks) and /metrics (who may read it: LABLD_METRICS), once per process.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { createServer } from '../../../gateways/kit/index.ts';
import { json, sampleGateway, start } from './support.ts';
import { setEnv } from '../../support/env.ts';

describe('gateway kit: health, readiness, metrics', () => {
  test('/healthz is 200 {status: ok}', async () => {
    const s = await start();
    try {
      const response = await fetch(`${s.url}/healthz`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok' });
    } finally {
      await s.close();
    }
  });

  test('/readyz is 200 when every check passes', async () => {
    const s = await start({
      readiness: [
        { name: 'bus', check: async () => true },
        { name: 'store', check: () => {} },
      ],
    });
    try {
      const response = await fetch(`${s.url}/readyz`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok', checks: { bus: 'ok', store: 'ok' } });
    } finally {
      await s.close();
    }
  });

  test('/readyz is 503 and names the failing checks (false, a rejection, a hang)', async () => {
    const s = await start({
      readiness: [
        { name: 'bus', check: async () => false },
        { name: 'store', check: () => Promise.reject(new Error('database locked')) },
        { name: 'registry', check: () => new Promise(() => {}), timeoutMs: 50 },
        { name: 'fine', check: () => true },
      ],
    });
    try {
      const response = await fetch(`${s.url}/readyz`);
      assert.equal(response.status, 503);
      const body = await json(response);
      assert.equal(body.status, 'unavailable');
      assert.equal(
        body.detail,
        'not ready: bus (not ready), store (database locked), registry (timed out after 50 ms)',
      );
      assert.equal((body.checks as Record<string, string>).fine, 'ok');
    } finally {
      await s.close();
    }
  });

  test('/metrics is Prometheus text with the request histogram by service and route template', async () => {
    const s = await start();
    try {
      await (await fetch(`${s.url}/annotator/api/items/5`)).arrayBuffer();
      await (await fetch(`${s.url}/annotator/no/such/path`)).arrayBuffer();
      const response = await fetch(`${s.url}/metrics`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await response.text();
      assert.match(
        text,
        /labld_http_request_seconds_count\{service="annotator",method="GET",route="\/api\/items\/\{id\}",status="200"\} \d+/,
      );
      assert.match(text, /route="unmatched",status="404"/);
      assert.doesNotMatch(text, /route="\/annotator\/no\/such\/path"/);
    } finally {
      await s.close();
    }
  });

  test('/metrics (LABLD_METRICS): local by default, a forwarded caller needs LABLD_METRICS_TOKEN; token; public; off', async () => {
    const s = await start();
    const scrape = (headers: Record<string, string> = {}) => fetch(`${s.url}/metrics`, { headers });
    const remote = { 'x-forwarded-for': '203.0.113.9' };
    const restore = setEnv({ LABLD_METRICS: undefined, LABLD_METRICS_TOKEN: undefined });
    try {
      assert.equal((await scrape()).status, 200, 'this machine');
      const refused = await scrape(remote);
      assert.equal(refused.status, 403, 'through a proxy: a caller elsewhere');
      assert.match(String((await json(refused)).detail), /LABLD_METRICS=local/);
      process.env.LABLD_METRICS_TOKEN = 'a scraper secret';
      assert.equal((await scrape({ ...remote, authorization: 'Bearer a scraper secret' })).status, 200);
      const wrong = await scrape({ ...remote, authorization: 'Bearer another secret' });
      assert.equal(wrong.status, 403);
      await wrong.arrayBuffer();
      process.env.LABLD_METRICS = 'token';
      const local = await scrape();
      assert.equal(local.status, 403, 'token: this machine too needs it');
      assert.match(String((await json(local)).detail), /LABLD_METRICS=token/);
      assert.equal((await scrape({ authorization: 'Bearer a scraper secret' })).status, 200);
      process.env.LABLD_METRICS = 'public';
      assert.equal((await scrape(remote)).status, 200);
      process.env.LABLD_METRICS = 'off';
      const off = await scrape();
      assert.equal(off.status, 404);
      assert.match(String((await json(off)).detail), /LABLD_METRICS=off/);
    } finally {
      restore();
      await s.close();
    }
  });

  test('health routes exist once, at the root, not under a service', async () => {
    const s = await start();
    try {
      const response = await fetch(`${s.url}/annotator/healthz`);
      assert.equal(response.status, 404);
      await response.arrayBuffer();
    } finally {
      await s.close();
    }
  });

  test('createServer listens; once closing, /readyz is 503 (shutting down) and the port is released', async () => {
    const running = await createServer({
      gateways: [sampleGateway()],
      port: 0,
      host: '127.0.0.1',
      logger: pino({ level: 'silent' }),
    });
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const ready = await fetch(`${running.url}/readyz`);
    assert.deepEqual(await ready.json(), { status: 'ok', checks: { server: 'ok' } });
    const closing = running.close(1000);
    // The listener no longer accepts connections; ask the same app through a second one.
    const probe = http.createServer(running.app.callback()).listen(0, '127.0.0.1');
    await once(probe, 'listening');
    try {
      const { port } = probe.address() as AddressInfo;
      const draining = await fetch(`http://127.0.0.1:${port}/readyz`);
      assert.equal(draining.status, 503);
      assert.equal((await json(draining)).detail, 'not ready: server (shutting down)');
    } finally {
      probe.closeAllConnections();
      probe.close();
    }
    await closing;
    await assert.rejects(fetch(`${running.url}/healthz`));
  });
});
