// The client address the login throttle and the rate limit count (gateways/kit/client-address.ts):
// the TCP peer unless LABLD_TRUSTED_PROXIES names the proxies whose X-Forwarded-For is trusted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from 'koa';
import { clientAddress } from '../../../gateways/kit/client-address.ts';
import { setEnv } from '../../support/env.ts';

function request(forwardedFor?: string): Context {
  const headers: Record<string, string> =
    forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return {
    req: { socket: { remoteAddress: '10.0.0.2' } },
    get: (name: string) => headers[name.toLowerCase()] ?? '',
  } as unknown as Context;
}

test('by default the TCP peer, whatever X-Forwarded-For says', () => {
  const restore = setEnv({ LABLD_TRUSTED_PROXIES: undefined });
  try {
    assert.equal(clientAddress(request()), '10.0.0.2');
    assert.equal(clientAddress(request('203.0.113.9')), '10.0.0.2');
  } finally {
    restore();
  }
});

test('behind n trusted proxies: the entry the outermost recorded, never one the client wrote before it', () => {
  const restore = setEnv({ LABLD_TRUSTED_PROXIES: '1' });
  try {
    assert.equal(clientAddress(request('198.51.100.7')), '198.51.100.7');
    assert.equal(clientAddress(request('1.2.3.4, 198.51.100.7')), '198.51.100.7', 'the client wrote 1.2.3.4');
    assert.equal(clientAddress(request()), '10.0.0.2', 'no header: the peer');
    process.env.LABLD_TRUSTED_PROXIES = '2';
    assert.equal(clientAddress(request('1.2.3.4, 198.51.100.7, 10.0.0.9')), '198.51.100.7');
    assert.equal(clientAddress(request('198.51.100.7')), '198.51.100.7', 'the inner proxy reached directly');
  } finally {
    restore();
  }
});
