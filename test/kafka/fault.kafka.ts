// Fault test on a real broker: two consumer processes of one group apply a stream of 1,000
// keyed messages; one is killed with SIGKILL at a random moment and started again. Every
// message is applied, none twice (the effect is idempotent, so at-least-once redelivery
// leaves no trace), and no message of a key is applied before its predecessor.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { kill9, runChild, TOPICS } from '../bus/conformance.ts';
import { openBus, catalogOf, type BusConfig } from '../../lib/bus/open.ts';
import { BROKERS, deleteNamespace, requireBroker } from './broker.ts';
import { waitFor } from '../support/wait.ts';
import { tempDir } from '../support/temp.ts';

before(requireBroker);

const EVENTS = 'conformance.events';
const KEYS = 20;
const PER_KEY = 50;

test('1,000 keyed messages, one of two consumers killed and restarted: all applied once, in key order', async (t) => {
  const prefix = `fault-${process.pid}-${Date.now().toString(36)}.`;
  const effects = tempDir('labld-fault-');
  const config: BusConfig = {
    transport: 'kafka',
    dataDir: tmpdir(),
    topicsFile: TOPICS,
    // A short session: the group notices the killed member within seconds.
    kafka: { brokers: BROKERS, topicPrefix: prefix, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500 },
  };
  const producer = await openBus(config, catalogOf(config));
  const children: ChildProcess[] = [];
  const consumer = () => runChild(config, ['apply', EVENTS, 'appliers', effects], 'subscribed');
  let restarted: Promise<ChildProcess> | undefined;
  try {
    children.push(await consumer(), await consumer());
    const total = KEYS * PER_KEY;
    const killAt = randomInt(100, total - 100);
    for (let n = 0; n < total; n += 1) {
      const entity = `k${n % KEYS}`;
      await producer.publish(EVENTS, { entity, seq: Math.floor(n / KEYS) }, { key: entity });
      if (n === killAt) {
        // At a random moment of the stream: kill one, start it again while the stream goes on.
        const victim = children.splice(randomInt(0, 2), 1)[0]!;
        await kill9(victim);
        restarted = consumer();
      }
    }
    children.push(await restarted!);
    const state = (k: number) => join(effects, `state-k${k}`);
    const applied = () =>
      Array.from({ length: KEYS }, (_, k) =>
        existsSync(state(k)) ? Number(readFileSync(state(k), 'utf8')) : -1,
      );
    await waitFor(
      'every key applied up to its last message',
      () => applied().every((s) => s === PER_KEY - 1),
      120_000,
    );

    const violations = existsSync(join(effects, 'violations'))
      ? readFileSync(join(effects, 'violations'), 'utf8')
      : '';
    assert.equal(violations, '', 'no message applied before its predecessor');
    const handled = readFileSync(join(effects, 'handled'), 'utf8').trim().split('\n');
    const distinct = new Set(handled.map((line) => line.split(' ').slice(1).join(' ')));
    assert.equal(distinct.size, total, 'every message handled');
    assert.ok(handled.length >= total, 'at least once');
    t.diagnostic(`killed after message ${killAt}; ${handled.length - total} redelivered`);
    assert.ok(new Set(handled.map((line) => line.split(' ')[0])).size >= 2, 'both consumers worked');
  } finally {
    const all = new Set(children);
    if (restarted) all.add(await restarted.catch(() => children[0]!));
    await Promise.all([...all].filter((c) => c.exitCode === null && c.signalCode === null).map(kill9));
    await producer.close();
    await deleteNamespace(prefix);
  }
});
