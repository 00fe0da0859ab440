// A request consumer on the embedded bus with the worker pool: the requester's deadline
// travels in a header and ends the work at the consumer; errors reach the requester as the
// gateways expect them (client errors with their status, time-outs as TimeoutError, anything
// else as a generic 500 without internals).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogOf, openBus } from '../../lib/bus/open.ts';
import type { TransportBus } from '../../lib/bus/bus.ts';
import { requestConsumer, startConsumer } from '../../consumers/registry.ts';
import { WorkerPool } from '../../consumers/workers/pool.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { DomainError, TimeoutError } from '../../lib/process/errors.ts';
import { readFileSync } from 'node:fs';
import { tempDir } from '../support/temp.ts';

// A request topic that takes any operation: the product's request topics take only their
// service's operations (lib/contracts), and these fixture operations are none of them.
const TOPICS = new URL('../bus/fixtures/lenient/topics.yaml', import.meta.url).pathname;
const GROUP = 'conformance-servers';
const consumer = { group: GROUP, module: new URL('./fixture-operations.ts', import.meta.url).href };

describe('request consumer on workers', () => {
  const dataDir = tempDir('labld-request-consumer-');
  const pool = new WorkerPool({ sources: [consumer], dataDir, size: 1, memoryMb: 64 });
  let bus: TransportBus;
  let topic: string;
  const ask = (operation: string, timeoutMs = 5000) =>
    bus.request(topic, { operation, input: {} }, { timeoutMs });

  before(async () => {
    bus = await openBus({ transport: 'embedded', dataDir, topicsFile: TOPICS });
    const catalog = catalogOf({ topicsFile: TOPICS });
    topic = catalog.topicReadBy(GROUP).name;
    await pool.start();
    await startConsumer(requestConsumer(consumer.group, 'catalogue'), {
      runtime: { bus, catalog, blobs: blobStoreIn(dataDir) },
      pool,
    });
  });
  after(async () => {
    await bus.close();
    await pool.close();
  });

  it('ends a spinning request at the requester’s deadline and serves the next one', async () => {
    const started = Date.now();
    await assert.rejects(ask('spin', 400), TimeoutError);
    // The only worker was terminated and replaced: the next request is answered promptly.
    const value = (await ask('echo')) as { group: string };
    assert.equal(value.group, GROUP);
    assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`);
  });

  it('answers a client error with its status and detail, without retrying', async () => {
    await assert.rejects(ask('fail'), (error) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.kind, error.message], ['invalid', 'x: not a number']);
      return true;
    });
  });

  it('answers a stack overflow as a 422 in words', async () => {
    await assert.rejects(ask('boom'), (error) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'invalid');
      assert.match(error.message, /nested too deeply to process/);
      return true;
    });
  });

  it('answers running out of memory with 413 naming LABLD_WORKER_MEMORY_MB', async () => {
    await assert.rejects(ask('grow', 20_000), (error) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'too-large');
      assert.match(error.message, /LABLD_WORKER_MEMORY_MB/);
      return true;
    });
  });

  it('answers an internal error with a generic 500 that shows no internals', async () => {
    await assert.rejects(ask('internal', 20_000), (error) => {
      assert.ok(error instanceof Error && !(error instanceof DomainError));
      assert.equal(error.message, 'internal error; the request was dead-lettered');
      return true;
    });
  });

  it('answers a bug at once, running it once; retries a reset connection (max_attempts 3)', async () => {
    const runs = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
    const bug = `${dataDir}/bug-runs`;
    await assert.rejects(
      bus.request(topic, { operation: 'bug', input: { path: bug } }, { timeoutMs: 20_000 }),
      /dead-lettered/,
    );
    assert.equal(runs(bug), 1, 'a TypeError fails the same way again: not retried');
    const reset = `${dataDir}/reset-runs`;
    await assert.rejects(
      bus.request(topic, { operation: 'reset', input: { path: reset } }, { timeoutMs: 20_000 }),
      /dead-lettered/,
    );
    assert.equal(runs(reset), 3, 'ECONNRESET may pass next time: retried up to max_attempts');
  });
});
