// The Bus conformance suite, part two: several messages of one partition in flight at once
// (`concurrency`), on a topic of one partition so that every message shares it. Called from
// busConformance, so it runs on every transport.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../lib/bus/contract.ts';
import type { Namespace } from './conformance.ts';
import { waitFor, sleep } from '../support/wait.ts';

const WINDOW = 'conformance.window';
const WINDOW_DLQ = 'conformance.requests.dead-letter';
const EVENTS = 'conformance.events';

interface Event {
  entity: string;
  seq: number;
}

let groups = 0;
const uniqueGroup = (label: string) => `${label}-${process.pid}-w${++groups}`;

/** Rejects when `signal` is aborted: a handler that runs until its consumer stops. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
  );
}

export function windowConformance(fresh: () => Promise<Namespace>): void {
  test('concurrency 2: a fast request published after a slow one on its partition is answered first; no third starts', async () => {
    const ns = await fresh();
    const server = await ns.connect();
    const client = await ns.connect();
    const gate = Promise.withResolvers<void>();
    const started: number[] = [];
    let active = 0;
    let most = 0;
    await server.serve<Event, number>(
      WINDOW,
      uniqueGroup('window'),
      async (m, signal) => {
        started.push(m.value.seq);
        active += 1;
        most = Math.max(most, active);
        try {
          if (m.value.entity === 'slow') await Promise.race([gate.promise, untilAborted(signal)]);
          return m.value.seq;
        } finally {
          active -= 1;
        }
      },
      { concurrency: 2 },
    );
    const answered: number[] = [];
    const ask = (entity: string, seq: number) =>
      client.request<Event, number>(WINDOW, { entity, seq }, { timeoutMs: 15_000 }).then((seqBack) => {
        answered.push(seqBack);
      });
    const slow = ask('slow', 0);
    await waitFor('the slow request to start', () => started.includes(0));
    await ask('fast', 1);
    assert.deepEqual(answered, [1], 'the fast request is answered while the slow one runs');

    // Two in flight (a second slow one joins the first): the next waits for room.
    const slowToo = ask('slow', 2);
    await waitFor('the second slow request to start', () => started.includes(2));
    const waiting = ask('fast', 3);
    await sleep(300);
    assert.deepEqual(started, [0, 1, 2], 'no third message of the partition starts');
    gate.resolve();
    await Promise.all([slow, slowToo, waiting]);
    assert.deepEqual(started, [0, 1, 2, 3], 'started in offset order');
    assert.equal(most, 2);
    assert.deepEqual(answered.slice(0, 1), [1]);
    assert.deepEqual([...answered].sort(), [0, 1, 2, 3]);
  });

  test('concurrency 2: the commit never passes a running message; stopped, it comes again with the finished one behind it', async () => {
    const ns = await fresh();
    const bus = await ns.connect();
    const group = uniqueGroup('window-restart');
    await bus.publish(WINDOW, { entity: 'slow', seq: 0 }, { key: 'slow' });
    await bus.publish(WINDOW, { entity: 'fast', seq: 1 }, { key: 'fast' });

    // First member: the fast message finishes while the slow one runs until the member stops.
    const finished: number[] = [];
    let slowStarted = false;
    const first = await bus.subscribe<Event>(
      WINDOW,
      group,
      async (m, signal) => {
        if (m.value.entity === 'slow') {
          slowStarted = true;
          await untilAborted(signal);
        }
        finished.push(m.value.seq);
      },
      { concurrency: 2 },
    );
    await waitFor(
      'the fast message handled while the slow one runs',
      () => slowStarted && finished.includes(1),
    );
    await first.close();
    assert.deepEqual(finished, [1]);

    // At-least-once: nothing was committed past the unfinished slow message, so the fast one,
    // although finished, is delivered again behind it.
    const gate = Promise.withResolvers<void>();
    const again: number[] = [];
    const second = await bus.subscribe<Event>(
      WINDOW,
      group,
      async (m, signal) => {
        again.push(m.value.seq);
        if (m.value.entity === 'slow') await Promise.race([gate.promise, untilAborted(signal)]);
      },
      { concurrency: 2 },
    );
    await waitFor('both messages again', () => again.length === 2);
    // (Started in offset order, but a payload codec may take longer for one than the other.)
    assert.deepEqual([...again].sort(), [0, 1], 'the slow one again, and the finished one behind it');
    gate.resolve();
    await second.close();

    // The slow one finished before the close: the commit passed both.
    await bus.publish(WINDOW, { entity: 'later', seq: 2 }, { key: 'later' });
    const third: Message<Event>[] = [];
    await bus.subscribe<Event>(WINDOW, group, async (m) => void third.push(m), { concurrency: 2 });
    await waitFor('the later message', () => third.length >= 1);
    await sleep(200);
    assert.deepEqual(
      third.map((m) => m.value.seq),
      [2],
      'nothing committed is delivered again',
    );
  });

  test('concurrency 2: a failing message is retried and dead-lettered as before while the next one is handled', async () => {
    const ns = await fresh();
    const bus = await ns.connect();
    const handled: number[] = [];
    let attempts = 0;
    await bus.subscribe<Event>(
      WINDOW,
      uniqueGroup('window-fail'),
      async (m) => {
        if (m.value.entity === 'bad') {
          attempts += 1;
          throw new Error('disk on fire');
        }
        handled.push(m.value.seq);
      },
      { concurrency: 2, backoffMs: 500 },
    );
    const dead: Message<unknown>[] = [];
    await bus.subscribe(WINDOW_DLQ, uniqueGroup('window-dlq'), async (m) => void dead.push(m));
    await bus.publish(WINDOW, { entity: 'bad', seq: 0 }, { key: 'bad' });
    await bus.publish(WINDOW, { entity: 'good', seq: 1 }, { key: 'good' });
    await waitFor('the good message', () => handled.includes(1));
    assert.equal(dead.length, 0, 'handled while the failing one still waits for its retries');
    await waitFor('the dead letter', () => dead.length === 1);
    assert.equal(attempts, 3, 'max_attempts of the topic');
    assert.deepEqual(dead[0]!.value, { entity: 'bad', seq: 0 });
  });

  test('concurrency 1 (an event topic’s default): the messages of a partition never overlap', async () => {
    const ns = await fresh();
    const bus = await ns.connect();
    const active = new Map<number, number>();
    let overlaps = 0;
    const seen: Message<Event>[] = [];
    await bus.subscribe<Event>(EVENTS, uniqueGroup('one-at-a-time'), async (m) => {
      const now = (active.get(m.partition) ?? 0) + 1;
      active.set(m.partition, now);
      if (now > 1) overlaps += 1;
      await sleep(5);
      active.set(m.partition, now - 1);
      seen.push(m);
    });
    for (let seq = 0; seq < 24; seq += 1)
      await bus.publish(EVENTS, { entity: `k${seq % 3}`, seq }, { key: `k${seq % 3}` });
    await waitFor('24 messages', () => seen.length === 24);
    assert.equal(overlaps, 0);
    for (const key of ['k0', 'k1', 'k2']) {
      const order = seen.filter((m) => m.value.entity === key).map((m) => m.value.seq);
      assert.deepEqual(
        order,
        [...order].sort((x, y) => x - y),
        `order of key ${key}`,
      );
    }
  });
}
