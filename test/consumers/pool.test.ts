// The worker pool with operations that misbehave on purpose: the main thread stays responsive
// while a worker spins, a deadline or an abort terminates the worker and the next request
// runs, running out of memory is a 413 naming LABLD_WORKER_MEMORY_MB, errors keep their kind,
// and stopping the pool leaves nothing running.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkerPool, workerCount } from '../../consumers/workers/pool.ts';
import { DomainError, TimeoutError } from '../../lib/process/errors.ts';
import { tempDir } from '../support/temp.ts';

const MODULE = new URL('./fixture-operations.ts', import.meta.url).href;
const dataDir = tempDir('labld-pool-');

function pool(size: number, memoryMb = 64): WorkerPool {
  return new WorkerPool({ sources: [{ group: 'test-requests', module: MODULE }], dataDir, size, memoryMb });
}

/** A pool of at most `size` workers, `warm` of them kept, extra ones closed after 300 ms idle. */
function onDemand(size: number, warm: number): WorkerPool {
  const sources = [{ group: 'test-requests', module: MODULE }];
  return new WorkerPool({ sources, dataDir, size, warm, idleMs: 300, memoryMb: 64 });
}

/** The pool's worker count once it has come down to `count` (or after 10 s). */
async function settledAt(workers: WorkerPool, count: number): Promise<number> {
  const until = Date.now() + 10_000;
  while (workers.workers() > count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return workers.workers();
}

/** The longest delay of a 10 ms interval timer while `work` runs: how blocked the event loop was. */
async function timerLag<T>(work: Promise<T>): Promise<{ lag: number; result: T }> {
  let lag = 0;
  let last = performance.now();
  const interval = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 10);
    last = now;
  }, 10);
  try {
    return { result: await work, lag };
  } finally {
    clearInterval(interval);
  }
}

describe('worker pool', () => {
  const one = pool(1);
  const two = pool(2);
  before(() => Promise.all([one.start(), two.start()]));
  after(() => Promise.all([one.close(), two.close()]));

  it('runs an operation in a worker that sees the data directory', async () => {
    const value = await one.run('test-requests', 'echo', { a: [1, 'b'] });
    assert.deepEqual(value, {
      group: 'test-requests',
      input: { a: [1, 'b'] },
      blobs: join(dataDir, 'blobs'),
    });
  });

  it('keeps the main event loop responsive while a worker spins for 1.5 s', async () => {
    const started = performance.now();
    const { lag, result } = await timerLag(two.run('test-requests', 'spin', { ms: 1500 }));
    assert.ok(performance.now() - started >= 1500);
    assert.ok((result as { turns: number }).turns > 0);
    // On the main thread the timer would have waited the whole 1.5 s.
    assert.ok(lag < 250, `timer lag ${lag.toFixed(0)} ms`);
  });

  it('terminates a spinning worker at the deadline and runs the next request', async () => {
    const started = Date.now();
    await assert.rejects(one.run('test-requests', 'spin', {}, { deadline: Date.now() + 300 }), (error) => {
      assert.ok(error instanceof TimeoutError);
      assert.match(error.message, /deadline/);
      return true;
    });
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(await one.run('test-requests', 'echo', { next: true }), {
      group: 'test-requests',
      input: { next: true },
      blobs: join(dataDir, 'blobs'),
    });
  });

  it('terminates a spinning worker when the signal aborts (a subscription closing)', async () => {
    const controller = new AbortController();
    const running = one.run('test-requests', 'spin', {}, { signal: controller.signal });
    await sleep(200);
    controller.abort(new Error('partition revoked'));
    await assert.rejects(running, /partition revoked/);
    assert.equal(((await one.run('test-requests', 'echo', {})) as { group: string }).group, 'test-requests');
  });

  it('does not run a request whose deadline has passed, queued or not', async () => {
    const path = join(dataDir, 'late-mark');
    await assert.rejects(
      one.run('test-requests', 'mark', { path }, { deadline: Date.now() - 1 }),
      (error) => error instanceof TimeoutError && /not run/.test(error.message),
    );
    // Queued behind a spin that outlives the second request's deadline.
    const busy = one.run('test-requests', 'spin', { ms: 600 });
    await assert.rejects(
      one.run('test-requests', 'mark', { path }, { deadline: Date.now() + 200 }),
      TimeoutError,
    );
    await busy;
    assert.equal(existsSync(path), false);
    assert.equal(await one.run('test-requests', 'mark', { path }), 'marked');
    assert.equal(existsSync(path), true);
  });

  it('queues requests when every worker is busy: one request per worker at a time', async () => {
    const started = performance.now();
    const results = await Promise.all([1, 2, 3, 4].map(() => two.run('test-requests', 'spin', { ms: 300 })));
    // Four 300 ms requests on two workers take two rounds.
    assert.ok(performance.now() - started >= 600, `${(performance.now() - started).toFixed(0)} ms`);
    for (const result of results) assert.ok((result as { turns: number }).turns > 0);
  });

  it('answers 413 naming LABLD_WORKER_MEMORY_MB when a worker runs out of memory, and recovers', async () => {
    await assert.rejects(one.run('test-requests', 'grow', {}), (error) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'too-large');
      assert.match(error.message, /64 MB, LABLD_WORKER_MEMORY_MB/);
      return true;
    });
    assert.equal(((await one.run('test-requests', 'echo', {})) as { group: string }).group, 'test-requests');
  });

  it('gives the same request the same answer: the previous request’s garbage is not counted', async () => {
    // 80 MB held, then 50 MB: either fits in the 128 allowed beside the worker's own ~25 MB, but
    // not with the 80 MB the one before left as garbage — counted, every other request was
    // refused (issue 25, finding 6: 200, 413, 200, 413, …). (At 64 MB with 40 and 20, the
    // worker's own heap left 4 MB of room: a fresh worker's first request was refused.)
    const roomy = pool(1, 128);
    await roomy.start();
    try {
      const answers: string[] = [];
      for (const mb of [80, 50, 80, 50, 80, 50, 80, 50]) {
        answers.push(
          await roomy.run('test-requests', 'hold', { mb }).then(
            (held) => `held ${String(held)}`,
            (error: Error) => error.message,
          ),
        );
      }
      assert.deepEqual(answers, Array(4).fill(['held 80', 'held 50']).flat());
    } finally {
      await roomy.close();
    }
  });

  it('leaves a small request’s garbage to V8: no full collection forced after each answer', async () => {
    // Forced after every answer, a loaded worker's full collection (~120 ms) took 60–90% of the
    // workers' time under the load bench (issue 25, "under load"); 20 small requests force none.
    const fresh = pool(1, 128);
    await fresh.start();
    try {
      const before = (await fresh.run('test-requests', 'forcedCollections', {})) as number;
      for (let i = 0; i < 20; i += 1) await fresh.run('test-requests', 'echo', { i });
      const after = (await fresh.run('test-requests', 'forcedCollections', {})) as number;
      assert.ok(after - before < 5, `forced collections over 20 small requests: ${after - before}`);
    } finally {
      await fresh.close();
    }
  });

  it('runs a waiting request before background work, which never takes the last worker', async () => {
    // Two chain steps (background) and then a page's read on a pool of two: the read is
    // answered while both steps are still running or waiting, not after one of them.
    const settled: string[] = [];
    const step = (name: string) =>
      two.run('test-requests', 'spin', { ms: 1500 }, { background: true }).then(() => settled.push(name));
    const steps = [step('first step'), step('second step')];
    await sleep(100);
    await two.run('test-requests', 'echo', {});
    assert.deepEqual(settled, [], 'the read waited for a background step');
    await Promise.all(steps);
    assert.equal(settled.length, 2);
  });

  it('stops workers growing one Map, array or string before V8 would abort the process', async () => {
    // V8's worker limit alone aborts the whole process on a large allocation crossing it.
    for (const operation of ['growMap', 'growArray', 'growString']) {
      await assert.rejects(one.run('test-requests', operation, {}), (error) => {
        assert.ok(error instanceof DomainError, `${operation}: ${String(error)}`);
        assert.equal(error.kind, 'too-large');
        return true;
      });
    }
    assert.equal(((await one.run('test-requests', 'echo', {})) as { group: string }).group, 'test-requests');
  });

  it('keeps a client error’s status, detail and field', async () => {
    await assert.rejects(one.run('test-requests', 'fail', {}), (error) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.kind, error.message, error.field], ['invalid', 'x: not a number', 'x']);
      return true;
    });
  });

  it('answers an unknown operation with 404 naming it', async () => {
    await assert.rejects(one.run('test-requests', 'nope', {}), (error) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'not-found');
      assert.match(error.message, /operation nope is not offered by test-requests/);
      return true;
    });
  });

  it('turns "Maximum call stack size exceeded" into a 422 in words', async () => {
    await assert.rejects(one.run('test-requests', 'boom', {}), (error) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'invalid');
      assert.match(error.message, /nested too deeply to process/);
      assert.doesNotMatch(error.message, /Maximum call stack/);
      return true;
    });
    await assert.rejects(one.run('test-requests', 'boomWrapped', {}), (error) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.kind, error.field], ['invalid', 'document']);
      assert.match(error.message, /^document: nested too deeply to process/);
      return true;
    });
  });

  it('names the input field nested too deeply to copy to a worker', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i += 1) deep = { a: deep };
    await assert.rejects(one.run('test-requests', 'echo', { data_url: 'x', extra: deep }), (error) => {
      assert.ok(error instanceof DomainError, String(error));
      assert.deepEqual([error.kind, error.field], ['invalid', 'extra']);
      assert.match(error.message, /^extra: nested too deeply to process/);
      return true;
    });
  });

  it('passes an internal error on as one, without its kind becoming a client error', async () => {
    await assert.rejects(one.run('test-requests', 'internal', {}), (error) => {
      assert.ok(error instanceof Error);
      assert.ok(!(error instanceof DomainError) && !(error instanceof TimeoutError));
      // The summary is for the dead-letter record; the bus answers the client a generic 500.
      assert.equal(error.message, 'TypeError: secret internals at /srv/labld');
      return true;
    });
  });

  it('runs a request once more when its worker dies, and answers `crashed` at once when that one dies too', async () => {
    const path = join(dataDir, 'die-twice');
    await assert.rejects(one.run('test-requests', 'die', { path }), (error) => {
      assert.ok(error instanceof DomainError, String(error));
      assert.equal(error.kind, 'crashed');
      assert.match(error.message, /die operation stopped its worker thread 2 times/);
      assert.match(error.message, /assert\(!this\.paused\)/);
      return true;
    });
    assert.equal(readFileSync(path, 'utf8'), 'ran\nran\n');
    assert.equal(((await one.run('test-requests', 'echo', {})) as { group: string }).group, 'test-requests');
  });

  it('answers a request whose first worker died but whose second did not', async () => {
    const path = join(dataDir, 'die-once');
    assert.equal(await one.run('test-requests', 'die', { path, once: true }), 'survived');
    assert.equal(readFileSync(path, 'utf8'), 'ran\nran\n');
  });
});

describe('worker pool lifecycle', () => {
  it('stops its workers: nothing keeps the process alive, later requests are refused', async () => {
    const workers = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const before = workers();
    const p = pool(2);
    assert.equal(p.ready(), false);
    await p.start();
    assert.equal(p.ready(), true);
    const spinning = assert.rejects(p.run('test-requests', 'spin', {}), /stopped/);
    assert.ok(workers() > before);
    await p.close();
    assert.equal(p.ready(), false);
    await spinning;
    await assert.rejects(p.run('test-requests', 'echo', {}), /stopped/);
    assert.equal(workers(), before);
  });

  it('refuses to start when a warm worker cannot load the operations module', async () => {
    const broken = new WorkerPool({
      sources: [{ group: 'g', module: new URL('./no-such-module.ts', import.meta.url).href }],
      dataDir,
      size: 1,
      warm: 1,
    });
    await assert.rejects(broken.start(), /no-such-module/);
    await broken.close();
  });

  it('refuses a memory limit too small to load the operations', () => {
    assert.throws(() => pool(1, 8), /LABLD_WORKER_MEMORY_MB must be at least 32, got 8/);
  });

  it('bounds the new space of its workers by LABLD_SEMI_SPACE_MB (default 4), 0 leaving it to V8', async () => {
    const churn = async (semiSpaceMb?: number) => {
      const p = new WorkerPool({
        sources: [{ group: 'test-requests', module: MODULE }],
        dataDir,
        size: 1,
        ...(semiSpaceMb === undefined ? {} : { semiSpaceMb }),
      });
      await p.start();
      try {
        return (await p.run('test-requests', 'churn', {})) as {
          newSpaceBytes: number;
          youngGenerationMb: number;
        };
      } finally {
        await p.close();
      }
    };
    const MB = 1024 * 1024;
    // The limit each worker is started with: V8's young generation is three semi-spaces.
    const byDefault = await churn();
    assert.equal(byDefault.youngGenerationMb, 12);
    assert.equal((await churn(2)).youngGenerationMb, 6);
    // What V8 makes of it under churn: two 4 MB semi-spaces, though V8 at times holds some pages
    // past them (8 to 14.25 MB measured at 4 MB); left to itself, it grows to 32 MB and keeps them.
    const own = await churn(0);
    assert.ok(own.newSpaceBytes >= 24 * MB, `V8's own new space: ${own.newSpaceBytes}`);
    assert.ok(byDefault.newSpaceBytes < own.newSpaceBytes, `bounded: ${byDefault.newSpaceBytes}`);
  });

  it('keeps one worker loaded, starts more while requests wait, and closes an extra one once idle', async () => {
    const lazy = onDemand(3, 1);
    try {
      await lazy.start();
      assert.equal(lazy.workers(), 1);
      let most = 0;
      const watch = setInterval(() => (most = Math.max(most, lazy.workers())), 20);
      const results = await Promise.all([1, 2, 3].map(() => lazy.run('test-requests', 'spin', { ms: 1500 })));
      clearInterval(watch);
      for (const result of results) assert.ok((result as { turns: number }).turns > 0);
      assert.equal(most, 3, 'three waiting requests started three workers');
      assert.equal(await settledAt(lazy, 1), 1, 'the idle extra workers were closed, the warm one kept');
      assert.equal(
        ((await lazy.run('test-requests', 'echo', {})) as { group: string }).group,
        'test-requests',
      );
    } finally {
      await lazy.close();
    }
  });

  it('without warm workers is ready at once and starts one for the first request', async () => {
    const cold = onDemand(2, 0);
    try {
      await cold.start();
      assert.equal(cold.workers(), 0);
      assert.equal(cold.ready(), true);
      assert.equal(
        ((await cold.run('test-requests', 'echo', {})) as { group: string }).group,
        'test-requests',
      );
      assert.equal(await settledAt(cold, 0), 0);
    } finally {
      await cold.close();
    }
  });

  it('by default keeps no worker loaded: an idle process holds none', async () => {
    const idle = new WorkerPool({ sources: [{ group: 'test-requests', module: MODULE }], dataDir, size: 2 });
    try {
      await idle.start();
      assert.equal(idle.warm, 0);
      assert.equal(idle.workers(), 0);
      assert.equal(idle.ready(), true);
    } finally {
      await idle.close();
    }
  });

  it("a worker started for a request loads only that request's group, not the process's others", async () => {
    // The other group's module does not load: a worker that loaded every group would never start.
    const sources = [
      { group: 'test-requests', module: MODULE },
      { group: 'other', module: new URL('./no-such-module.ts', import.meta.url).href },
    ];
    const mixed = new WorkerPool({ sources, dataDir, size: 1, warm: 0, memoryMb: 64 });
    try {
      await mixed.start();
      const answer = mixed.run('test-requests', 'echo', {}, { deadline: Date.now() + 30_000 });
      assert.equal(((await answer) as { group: string }).group, 'test-requests');
      await assert.rejects(mixed.run('other', 'echo', {}), /no-such-module/);
      // The failed load was that request's: the worker still answers its own group.
      assert.equal(
        ((await mixed.run('test-requests', 'echo', {})) as { group: string }).group,
        'test-requests',
      );
    } finally {
      await mixed.close();
    }
  });

  it('sizes itself from LABLD_WORKERS, at least two by default', () => {
    assert.equal(workerCount({ LABLD_WORKERS: '3' }), 3);
    assert.ok(workerCount({}) >= 2);
    assert.throws(() => workerCount({ LABLD_WORKERS: '0' }), /at least 1/);
    assert.throws(() => workerCount({ LABLD_WORKERS: 'many' }), /LABLD_WORKERS/);
  });
});
