// Issue 11: slow clients get header and body timeouts well below Node's 300 s defaults.
// Slowloris (headers dripped one line a second, never finished) on many sockets, and a body
// that stalls after a few bytes, are each cut — closed, or answered 408 — within SLOW_LIMIT_MS,
// while /healthz stays responsive and another client's request succeeds.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startHostile, underAttack, type Hostile } from './harness.ts';

/** "Well below 300 s": a slow client is cut within this. */
const SLOW_LIMIT_MS = 45_000;
const SLOWLORIS_SOCKETS = 20;
let h: Hostile;

before(async () => {
  h = await startHostile();
});
after(() => h?.stop());

interface Cut {
  /** Time from connecting until labld closed the connection (undefined: still open at the limit). */
  ms: number | undefined;
  /** What labld sent back, if anything. */
  reply: string;
}

/**
 * Opens a raw connection, sends `start`, then `drip` every second; resolves when labld closes
 * the connection or at SLOW_LIMIT_MS (then the connection is dropped by the test).
 */
function slowClient(start: string, drip: string | undefined): Promise<Cut> {
  const { port, hostname } = new URL(h.base);
  return new Promise<Cut>((resolve) => {
    const began = performance.now();
    const socket = connect(Number(port), hostname);
    let reply = '';
    const dripper = drip === undefined ? undefined : setInterval(() => socket.write(drip), 1000);
    const limit = setTimeout(() => finish(undefined), SLOW_LIMIT_MS);
    const finish = (ms: number | undefined): void => {
      clearInterval(dripper);
      clearTimeout(limit);
      socket.destroy();
      resolve({ ms, reply });
    };
    socket.on('connect', () => socket.write(start));
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(performance.now() - began));
  });
}

function assertCut(label: string, cut: Cut): void {
  assert.ok(cut.ms !== undefined, `${label}: still connected after ${SLOW_LIMIT_MS} ms`);
  const status = /^HTTP\/1\.1 (\d{3})/.exec(cut.reply)?.[1];
  assert.ok(
    status === undefined || status === '408',
    `${label}: cut with nothing or a 408, got ${cut.reply.slice(0, 200)}`,
  );
}

describe('slow clients', () => {
  it(`slowloris on ${SLOWLORIS_SOCKETS} sockets and a stalled body: cut, labld responsive`, async () => {
    const label = 'slow clients';
    const host = new URL(h.base).host;
    await underAttack(
      h,
      label,
      () =>
        Promise.all([
          Promise.all(
            Array.from({ length: SLOWLORIS_SOCKETS }, (_, i) =>
              slowClient(`GET /annotator/info HTTP/1.1\r\nHost: ${host}\r\n`, `X-Drip-${i}: a\r\n`),
            ),
          ),
          slowClient(
            `POST /annotator/api/annotate HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
              'Content-Length: 100\r\n\r\n{"data_url":',
            undefined,
          ),
        ]),
      ([loris, stalled]) => {
        loris.forEach((cut, i) => assertCut(`slowloris socket ${i}`, cut));
        assertCut('stalled body', stalled);
      },
    );
  });
});
