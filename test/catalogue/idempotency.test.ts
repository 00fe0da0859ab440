// Idempotency-Key on resource_create (gateways/catalogue/idempotency.ts): which requests count
// as the same (one scoped key and fingerprint), and which keys are refused. What a retry gets is
// the catalogue store's part (store-conformance-requests.ts) and a whole labld's
// (test/shared/labld.ts, test/catalogue/idempotency-restart.e2e.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { idempotencyOf, type IdempotentCall } from '../../gateways/catalogue/idempotency.ts';
import { DomainError } from '../../lib/process/errors.ts';

const alice = { kind: 'token', hash: 'alice-hash' } as const;
const upload = { blob: 'b'.repeat(64), filename: 'a.csv', mimetype: 'text/csv', size: 3 };

function call(extra: Partial<IdempotentCall> = {}): IdempotentCall {
  return {
    key: 'key-1',
    action: 'resource_create',
    credential: alice,
    params: { package_id: 'd1', description: 'raw', name: 'a' },
    upload,
    ...extra,
  };
}

describe('Idempotency-Key', () => {
  test('the same request, parameters in another order, is the same key and fingerprint (hashes)', () => {
    const first = idempotencyOf(call());
    const reordered = idempotencyOf(call({ params: { name: 'a', description: 'raw', package_id: 'd1' } }));
    assert.deepEqual(reordered, first);
    assert.match(first!.key, /^[0-9a-f]{64}$/);
    assert.match(first!.fingerprint, /^[0-9a-f]{64}$/);
  });

  test('without the header, or on another action, there is no key', () => {
    assert.equal(idempotencyOf(call({ key: undefined })), undefined);
    assert.equal(idempotencyOf(call({ action: 'package_create' })), undefined);
  });

  test('another file or other parameters: the same key with another fingerprint', () => {
    const first = idempotencyOf(call())!;
    for (const other of [
      call({ upload: { ...upload, blob: 'c'.repeat(64) } }),
      call({ upload: { ...upload, filename: 'b.csv' } }),
      call({ params: { package_id: 'd1', description: 'cooked', name: 'a' } }),
    ]) {
      const found = idempotencyOf(other)!;
      assert.equal(found.key, first.key);
      assert.notEqual(found.fingerprint, first.fingerprint);
    }
  });

  test("a key is its caller's and its dataset's: another caller or dataset is another key", () => {
    const keys = [
      call(),
      call({ credential: { kind: 'token', hash: 'bob-hash' } }),
      call({ credential: { kind: 'anonymous' } }),
      call({ params: { package_id: 'd2', description: 'raw', name: 'a' } }),
      call({ key: 'key-2' }),
    ].map((c) => idempotencyOf(c)!.key);
    assert.equal(new Set(keys).size, keys.length);
  });

  test('a key that is not 1-255 visible ASCII characters is refused naming the header', () => {
    for (const key of ['', ' leading', 'x'.repeat(256), 'tab\there', 'ünï', 'trailing ']) {
      assert.throws(
        () => idempotencyOf(call({ key })),
        (error: unknown) => {
          assert.ok(error instanceof DomainError, String(error));
          assert.deepEqual([error.field, error.kind], ['Idempotency-Key', 'invalid']);
          assert.match(error.message, /1 to 255 visible ASCII/);
          return true;
        },
        JSON.stringify(key),
      );
    }
    assert.ok(idempotencyOf(call({ key: 'x'.repeat(255) })));
  });
});
