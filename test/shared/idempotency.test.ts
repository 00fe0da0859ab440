// Idempotency-Key on resource_create (gateways/catalogue/idempotency.ts) over the in-process
// store: which requests count as the same, what a retry gets, and what frees a key. The store's
// own contract runs on Redis too (conformance.ts); this logic is the same over either.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { idempotent, type IdempotentCall } from '../../gateways/catalogue/idempotency.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { MemoryIdempotencyStore } from '../../lib/shared/memory.ts';

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

/** A piece of work that counts its runs and answers a new resource each time. */
function counter() {
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    work: async () => ({ id: `r${++runs}` }),
  };
}

function refusal(field: string, kind: DomainError['kind'], pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.deepEqual([error.field, error.kind], [field, kind]);
    assert.match(error.message, pattern);
    return true;
  };
}

describe('Idempotency-Key', () => {
  test('a retry of the same request runs once and answers the first result; key order in the parameters does not matter', async () => {
    const store = new MemoryIdempotencyStore();
    const c = counter();
    const first = await idempotent(store, call(), c.work);
    const reordered = call({ params: { name: 'a', description: 'raw', package_id: 'd1' } });
    assert.deepEqual(await idempotent(store, reordered, c.work), first);
    assert.equal(c.runs, 1);
  });

  test('without the header, without a store, or on another action, every request runs', async () => {
    const store = new MemoryIdempotencyStore();
    const c = counter();
    await idempotent(store, call({ key: undefined }), c.work);
    await idempotent(store, call({ key: undefined }), c.work);
    await idempotent(undefined, call(), c.work);
    await idempotent(undefined, call(), c.work);
    await idempotent(store, call({ action: 'package_create' }), c.work);
    await idempotent(store, call({ action: 'package_create' }), c.work);
    assert.equal(c.runs, 6);
  });

  test('the same key with another file or other parameters is a conflict naming the header', async () => {
    const store = new MemoryIdempotencyStore();
    const c = counter();
    await idempotent(store, call(), c.work);
    await assert.rejects(
      idempotent(store, call({ upload: { ...upload, blob: 'c'.repeat(64) } }), c.work),
      refusal('Idempotency-Key', 'conflict', /used for another request/),
    );
    await assert.rejects(
      idempotent(store, call({ params: { package_id: 'd1', description: 'cooked', name: 'a' } }), c.work),
      refusal('Idempotency-Key', 'conflict', /used for another request/),
    );
    assert.equal(c.runs, 1);
  });

  test('a retry while the first runs is a conflict; once it failed, the key is free again', async () => {
    const store = new MemoryIdempotencyStore();
    let release!: () => void;
    const slow = idempotent(
      store,
      call(),
      () => new Promise((_, reject) => (release = () => reject(new Error('boom')))),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(
      idempotent(store, call(), counter().work),
      refusal('Idempotency-Key', 'conflict', /still running/),
    );
    release();
    await assert.rejects(slow, /boom/);
    const c = counter();
    assert.deepEqual(await idempotent(store, call(), c.work), { id: 'r1' });
    assert.equal(c.runs, 1);
  });

  test("a key is its caller's and its dataset's: others with the same key run their own request", async () => {
    const store = new MemoryIdempotencyStore();
    const c = counter();
    await idempotent(store, call(), c.work);
    await idempotent(store, call({ credential: { kind: 'token', hash: 'bob-hash' } }), c.work);
    await idempotent(store, call({ params: { package_id: 'd2', description: 'raw', name: 'a' } }), c.work);
    assert.equal(c.runs, 3);
  });

  test('a key that is not 1-255 visible ASCII characters is refused naming the header', async () => {
    const store = new MemoryIdempotencyStore();
    for (const key of ['', ' leading', 'x'.repeat(256), 'tab\there', 'ünï', 'trailing ']) {
      await assert.rejects(
        idempotent(store, call({ key }), counter().work),
        refusal('Idempotency-Key', 'invalid', /1 to 255 visible ASCII/),
        JSON.stringify(key),
      );
    }
    assert.deepEqual(await idempotent(store, call({ key: 'x'.repeat(255) }), counter().work), { id: 'r1' });
  });

  test('a store that cannot be reached refuses the request rather than risk a second resource', async () => {
    const down = {
      claim: () => Promise.reject(new Error('connection refused')),
      complete: () => Promise.reject(new Error('connection refused')),
      release: () => Promise.reject(new Error('connection refused')),
    };
    const c = counter();
    await assert.rejects(
      idempotent(down, call(), c.work),
      refusal('Idempotency-Key', 'unreachable', /LABLD_REDIS_URL/),
    );
    assert.equal(c.runs, 0);
  });
});
