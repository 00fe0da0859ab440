// The shared stores in a whole labld with LABLD_REDIS_URL unset: process memory, as embedded.
// And a labld whose Redis is down: /readyz says so, and requests are still served.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setEnv } from '../support/env.ts';
import { startLabld } from '../support/labld.ts';
import { labldSuite } from './labld.ts';

labldSuite('process memory', () => ({ LABLD_REDIS_URL: undefined }));

test('a Redis that is down: /readyz is 503 naming redis; rate-limited requests still pass', async () => {
  // Port 1 on loopback: nothing listens, the connection is refused at once.
  const restore = setEnv({ LABLD_REDIS_URL: 'redis://127.0.0.1:1', LABLD_RATE_LIMIT: '1' });
  const labld = await startLabld();
  restore();
  try {
    const ready = await fetch(`${labld.url}/readyz`);
    assert.equal(ready.status, 503);
    const body = (await ready.json()) as { detail: string; checks: Record<string, string> };
    assert.match(body.detail, /redis/);
    assert.notEqual(body.checks.redis, 'ok');
    for (let i = 0; i < 3; i += 1) {
      assert.equal((await fetch(`${labld.url}/converter/api/openapi.json`)).status, 200);
    }
  } finally {
    await labld.stop();
  }
});
