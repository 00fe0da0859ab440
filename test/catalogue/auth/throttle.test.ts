// The login throttle on its own clock: free failures, doubling delays up to the cap, per name at
// an address and per address, forgetting after a quiet window, bounded memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoginThrottle } from '../../../lib/catalogue/auth/throttle.ts';

function throttle(options: ConstructorParameters<typeof LoginThrottle>[0] = {}) {
  const clock = { now: 0 };
  return { clock, t: new LoginThrottle({ now: () => clock.now, ...options }) };
}

test('five free failures per name at an address, then 1 s, 2 s, 4 s … up to the cap', () => {
  const { clock, t } = throttle({ nameAtAddress: { free: 5, baseMs: 1000, maxMs: 8000 } });
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
  t.failed('Ada ', '10.0.0.1');
  assert.equal(t.waitMs('ada', '10.0.0.1'), 8000, 'names are counted case-folded');
});

test('a name closed at one address is open at another: a guesser elsewhere does not lock the user out', () => {
  const { t } = throttle({ nameAtAddress: { free: 5, baseMs: 1000, maxMs: 8000 } });
  for (let i = 0; i < 8; i++) t.failed('ada', '203.0.113.9');
  assert.ok(t.waitMs('ada', '203.0.113.9') > 0, "the guesser's address is held up");
  assert.equal(t.waitMs('ada', '198.51.100.7'), 0, "the user's own address is not");
  assert.equal(t.waitMs('bob', '203.0.113.9'), 0, 'another name from there is not (below the address limit)');
});

test('an address is closed after its own free failures, across names', () => {
  const { t } = throttle({ address: { free: 3, baseMs: 500, maxMs: 60_000 } });
  for (const name of ['a1', 'a2', 'a3']) t.failed(name, '192.0.2.7');
  assert.equal(t.waitMs('someone', '192.0.2.7'), 0);
  t.failed('a4', '192.0.2.7');
  assert.equal(t.waitMs('someone', '192.0.2.7'), 500);
  assert.equal(t.waitMs('someone', '192.0.2.8'), 0);
});

test('a success clears its name at its address, not the address; a quiet window forgets both', () => {
  const { clock, t } = throttle({
    nameAtAddress: { free: 1, baseMs: 1000, maxMs: 1000 },
    address: { free: 3, baseMs: 1000, maxMs: 1000 },
    forgetAfterMs: 60_000,
  });
  t.failed('ada', 'x');
  t.failed('ada', 'x');
  assert.equal(t.waitMs('ada', 'x'), 1000);
  clock.now += 1000;
  t.succeeded('ada', 'x');
  t.failed('ada', 'x');
  assert.equal(t.waitMs('ada', 'x'), 0, 'the name at x starts again from zero');
  t.failed('bob', 'x');
  assert.equal(t.waitMs('carol', 'x'), 1000, 'the address kept its count (4 failures)');
  clock.now += 61_000;
  t.failed('bob', 'x');
  assert.equal(
    t.waitMs('carol', 'x'),
    0,
    'forgotten after the quiet window: this is its first failure again',
  );
});

test('memory stays bounded: the least recently failed keys go first', () => {
  const { t } = throttle({ nameAtAddress: { free: 0, baseMs: 1000, maxMs: 1000 }, maxKeys: 3 });
  for (const name of ['n1', 'n2', 'n3', 'n4']) t.failed(name, 'a');
  assert.equal(t.waitMs('n1', 'a'), 0, 'n1 was dropped');
  assert.equal(t.waitMs('n4', 'a'), 1000);
});
