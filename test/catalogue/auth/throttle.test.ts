// The login throttle on its own clock: free failures, doubling delays up to the cap, per name
// and per address, forgetting after a quiet window, bounded memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoginThrottle } from '../../../lib/catalogue/auth/throttle.ts';

function throttle(options: ConstructorParameters<typeof LoginThrottle>[0] = {}) {
  const clock = { now: 0 };
  return { clock, t: new LoginThrottle({ now: () => clock.now, ...options }) };
}

test('five free failures per name, then 1 s, 2 s, 4 s … up to the cap', () => {
  const { clock, t } = throttle({ name: { free: 5, baseMs: 1000, maxMs: 8000 } });
  for (let i = 0; i < 5; i++) {
    assert.equal(t.waitMs('ada', '10.0.0.1'), 0);
    t.failed('ada', '10.0.0.1');
  }
  assert.equal(t.waitMs('ada', '10.0.0.1'), 0, 'the fifth failure still costs nothing');
  const delays: number[] = [];
  for (let i = 0; i < 6; i++) {
    t.failed('ada', '10.0.0.1');
    const wait = t.waitMs('ada', '10.0.0.1');
    delays.push(wait);
    clock.now += wait;
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 8000, 8000]);
  assert.equal(t.waitMs('bob', '10.0.0.2'), 0, 'another name from another address is free');
  assert.equal(t.waitMs('ADA ', '10.0.0.2'), 0, 'the closed delay has passed');
  t.failed('Ada', '10.0.0.2');
  assert.ok(t.waitMs('ada', '10.0.0.3') > 0, 'names are counted case-folded, from any address');
});

test('an address is closed after its own free failures, across names', () => {
  const { t } = throttle({ address: { free: 3, baseMs: 500, maxMs: 60_000 } });
  for (const name of ['a1', 'a2', 'a3']) t.failed(name, '192.0.2.7');
  assert.equal(t.waitMs('someone', '192.0.2.7'), 0);
  t.failed('a4', '192.0.2.7');
  assert.equal(t.waitMs('someone', '192.0.2.7'), 500);
  assert.equal(t.waitMs('someone', '192.0.2.8'), 0);
});

test('a success clears its name, not its address; a quiet window forgets both', () => {
  const { clock, t } = throttle({
    name: { free: 1, baseMs: 1000, maxMs: 1000 },
    address: { free: 1, baseMs: 1000, maxMs: 1000 },
    forgetAfterMs: 60_000,
  });
  t.failed('ada', 'x');
  t.failed('ada', 'x');
  clock.now += 1000;
  t.succeeded('ada');
  t.failed('ada', 'y');
  assert.equal(t.waitMs('ada', 'y'), 0, 'the name starts again from zero');
  t.failed('bob', 'x');
  assert.equal(t.waitMs('carol', 'x'), 1000, 'the address kept its count');
  clock.now += 61_000;
  t.failed('bob', 'x');
  assert.equal(
    t.waitMs('carol', 'x'),
    0,
    'forgotten after the quiet window: this is its first failure again',
  );
});

test('memory stays bounded: the least recently failed keys go first', () => {
  const { t } = throttle({ name: { free: 0, baseMs: 1000, maxMs: 1000 }, maxKeys: 3 });
  for (const name of ['n1', 'n2', 'n3', 'n4']) t.failed(name, `ip-${name}`);
  assert.equal(t.waitMs('n1', 'elsewhere'), 0, 'n1 was dropped');
  assert.equal(t.waitMs('n4', 'elsewhere'), 1000);
});
