// Polling helpers for tests that wait on asynchronous delivery.
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Calls `get` until `done` holds of its answer or `timeoutMs` passes; the last answer either way. */
export async function eventually<T>(
  get: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

export { sleep };
