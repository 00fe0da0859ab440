// The Bus conformance suite, part three: only a failure that may pass next time is retried. A
// bug (a TypeError) fails the same way on the same message, so it is dead-lettered, or answered,
// after one attempt; a reset connection is retried up to the topic's max_attempts (3 in the
// fixture). Called from busConformance, so it runs on every transport.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../lib/bus/contract.ts';
import { DLQ_HEADERS } from '../../lib/bus/dead-letter.ts';
import { EVENTS, EVENTS_DLQ, REQUESTS, REQUESTS_DLQ, type Event, type Namespace } from './conformance.ts';
import { waitFor } from '../support/wait.ts';

let groups = 0;
const uniqueGroup = (label: string) => `${label}-${process.pid}-r${++groups}`;

const bug = () => new TypeError("Cannot read properties of undefined (reading 'rows')");
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
/** What fetch throws when the connection was reset: a TypeError whose cause is transient. */
const fetchFailed = () => new TypeError('fetch failed', { cause: reset() });

export function retryConformance(fresh: () => Promise<Namespace>): void {
  test('a handler that throws a TypeError runs once and is dead-lettered; ECONNRESET is retried', async () => {
    const bus = await (await fresh()).connect();
    const calls = new Map<string, number>();
    await bus.subscribe<Event>(EVENTS, uniqueGroup('kinds'), async (m) => {
      calls.set(m.value.entity, (calls.get(m.value.entity) ?? 0) + 1);
      throw { bug, reset, fetchFailed }[m.value.entity as 'bug']();
    });
    const dead: Message<Event>[] = [];
    await bus.subscribe<Event>(EVENTS_DLQ, uniqueGroup('dlq-reader'), async (m) => void dead.push(m));
    for (const entity of ['bug', 'reset', 'fetchFailed'])
      await bus.publish(EVENTS, { entity, seq: 1 }, { key: entity });
    await waitFor('three dead letters', () => dead.length === 3);
    assert.deepEqual(Object.fromEntries(calls), { bug: 1, reset: 3, fetchFailed: 3 });
    const letter = dead.find((m) => m.value.entity === 'bug')!;
    // Still recorded, so that it can be replayed once the bug is fixed.
    assert.equal(letter.headers[DLQ_HEADERS.attempts], '1');
    assert.match(letter.headers[DLQ_HEADERS.error]!, /TypeError: Cannot read properties/);
  });

  test('a request whose handler throws a TypeError is answered and dead-lettered after one attempt', async () => {
    const ns = await fresh();
    const server = await ns.connect();
    const client = await ns.connect();
    let calls = 0;
    await server.serve(REQUESTS, uniqueGroup('bug'), async () => {
      calls += 1;
      throw bug();
    });
    const dead: Message<unknown>[] = [];
    await server.subscribe(REQUESTS_DLQ, uniqueGroup('dlq-reader'), async (m) => void dead.push(m));
    await assert.rejects(
      client.request(REQUESTS, { entity: 'z', seq: 0 }, { timeoutMs: 10_000 }),
      /dead-lettered/,
    );
    await waitFor('the dead letter', () => dead.length === 1);
    assert.equal(calls, 1);
    assert.equal(dead[0]!.headers[DLQ_HEADERS.attempts], '1');
  });
}
