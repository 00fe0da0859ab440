// Local HTTP servers and policies for the guarded-fetch tests. Nothing here reaches the
// internet: servers listen on 127.0.0.1 and names resolve through a fixed table.
import assert from 'node:assert/strict';
import { DomainError, type ErrorKind } from '../../lib/process/errors.ts';
import { makePolicy, type PolicyOverrides, type Resolver } from '../../lib/fetch/guarded-fetch.ts';

export { serve, type TestServer } from '../support/file-server.ts';

/**
 * A resolver answering from a table; loopback literals stand for themselves, anything else
 * unknown (names and public IP literals alike) is "not found", so no test dials out.
 */
export function tableResolver(table: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const loopback = /^127\./.test(hostname) || hostname === '::1';
    const answers = loopback ? [hostname] : table[hostname.toLowerCase()];
    if (!answers) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** Short limits, 127.0.0.1 allowed, and no real DNS unless a test asks for it. */
export function testPolicy(overrides: PolicyOverrides = {}) {
  return makePolicy({
    allow: '127.0.0.1/32',
    timeoutMs: 2000,
    connectTimeoutMs: 1000,
    maxBytes: 1024,
    maxRedirects: 3,
    resolve: tableResolver({}),
    ...overrides,
  });
}

/** Asserts a DomainError of the kind, whose detail contains every fragment. */
export async function rejectsWith(work: Promise<unknown>, kind: ErrorKind, ...fragments: string[]) {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    for (const fragment of fragments) {
      assert.ok(error.message.includes(fragment), `${JSON.stringify(error.message)} lacks ${fragment}`);
    }
    return true;
  });
}
