// A large body from a server that closes the connection after it (HTTP/1.0, as
// `python3 -m http.server` answers, or `Connection: close`), read slowly: the parser is paused
// by backpressure when the socket ends. undici before 8.13 (nodejs/undici#5360) threw an
// uncatchable assertion from the socket's end handler then, which killed the reading thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { guardedFetch } from '../../lib/fetch/guarded-fetch.ts';
import { testPolicy } from './helpers.ts';

const SIZE = 12 * 1024 * 1024;
const LINE = 'a;b;c;d;e;f;g;h;i;j;1,5;2,5;3,5\n';

let server: Server;
let origin: string;
const sockets = new Set<Socket>();

/** A body of SIZE bytes: LINE repeated, the last one cut to fit. */
function body(): Buffer {
  return Buffer.from(LINE.repeat(Math.ceil(SIZE / LINE.length)).slice(0, SIZE));
}

before(async () => {
  const payload = body();
  // A raw socket server: HTTP/1.0, the body delimited by the end of the connection (no length),
  // or with a Content-Length and `Connection: close` — both end the socket right after the body.
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (request) => {
      const withLength = request.toString('latin1').startsWith('GET /with-length');
      const head = withLength
        ? `HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`
        : 'HTTP/1.0 200 OK\r\nContent-Type: text/csv\r\n\r\n';
      socket.write(head);
      socket.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Reads the body with pauses, as a consumer that writes triples with backpressure does. */
async function readSlowly(path: string): Promise<number> {
  const fetched = await guardedFetch(`${origin}${path}`, {
    field: 'data_url',
    policy: testPolicy({ maxBytes: SIZE * 2, timeoutMs: 60_000 }),
  });
  let bytes = 0;
  let chunks = 0;
  // The first pause lets the server write everything and close its end while nothing is read.
  await sleep(300);
  for await (const chunk of fetched.body) {
    bytes += (chunk as Buffer).length;
    if (++chunks % 2 === 0) await sleep(1);
    // A pause on the last chunk is the case that crashed; slow reading makes it likely.
  }
  return bytes;
}

// A few rounds each: whether the parser is paused at the very end depends on timing.
const ROUNDS = 4;

test('a large HTTP/1.0 body, read slowly, arrives whole (the server closes after it)', async () => {
  for (let round = 0; round < ROUNDS; round++) assert.equal(await readSlowly('/plain'), SIZE);
});

test('a large body sent with Connection: close, read slowly, arrives whole', async () => {
  for (let round = 0; round < ROUNDS; round++) assert.equal(await readSlowly('/with-length'), SIZE);
});
