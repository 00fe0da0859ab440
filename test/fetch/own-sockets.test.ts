// labld's own sockets are never dialled, whatever LABLD_FETCH_ALLOW admits: every way of
// writing "this machine" in a URL (names, IPv4 and IPv6 loopback, the unspecified address, the
// URL parser's decimal and hex IPv4 forms), directly or by a redirect, and from a worker thread
// (where the operations that fetch run) as from the main thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { guardedFetch, makePolicy, systemResolver } from '../../lib/fetch/guarded-fetch.ts';
import { isOwnAddress, noteListening } from '../../lib/fetch/own-address.ts';
import { rejectsWith, serve, type TestServer } from './helpers.ts';

/** Stands in for labld: listening on every address (`::`, dual stack), as in a container. */
let self: Server;
let port: number;
let forget: () => void;
let allowed: TestServer;

before(async () => {
  self = createServer((_req, res) => res.end('labld_process_cpu_user_seconds_total 1\n'));
  await new Promise<void>((resolve) => self.listen(0, '::', resolve));
  const address = self.address() as AddressInfo;
  port = address.port;
  forget = noteListening(address.address, port);
  allowed = await serve((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (target === null) return void res.end('lab data');
    res.statusCode = 302;
    res.setHeader('location', target);
    res.end();
  });
});
after(async () => {
  forget();
  await allowed.close();
  await new Promise((resolve) => self.close(resolve));
});

/** Everything private allowed, on every port: only the own-socket rule stands in the way. */
const openPolicy = () =>
  makePolicy({
    allow: `localhost,${hostname()},0.0.0.0/0,::/0`,
    resolve: systemResolver,
    timeoutMs: 5000,
    connectTimeoutMs: 3000,
  });

const forms = () => [
  `http://localhost:${port}/metrics`,
  `http://127.0.0.1:${port}/metrics`,
  `http://127.0.1.1:${port}/metrics`,
  `http://[::1]:${port}/metrics`,
  `http://[::ffff:127.0.0.1]:${port}/metrics`,
  `http://${hostname()}:${port}/metrics`,
  `http://0.0.0.0:${port}/metrics`,
  `http://0:${port}/metrics`,
  `http://[::]:${port}/metrics`,
  `http://2130706433:${port}/metrics`,
  `http://0x7f000001:${port}/metrics`,
  `http://0x7f.1:${port}/metrics`,
  `http://127.1:${port}/metrics`,
  `http://017700000001:${port}/metrics`,
];

test('every address form of this machine on labld’s port is refused as labld itself', async () => {
  const policy = openPolicy();
  for (const url of forms()) {
    await rejectsWith(guardedFetch(url, { field: 'url', policy }), 'forbidden', 'is labld itself');
  }
});

test('a redirect from an allowed server to labld’s port is refused, in every address form', async () => {
  const policy = openPolicy();
  for (const url of forms()) {
    const hop = `http://127.0.0.1:${allowed.port}/?u=${encodeURIComponent(url)}`;
    await rejectsWith(
      guardedFetch(hop, { field: 'url', policy }),
      'forbidden',
      'redirected to',
      'is labld itself',
    );
  }
});

test('host and port both count: this machine on another port is still reachable when allowed', async () => {
  const other = await guardedFetch(`http://localhost:${allowed.port}/data.csv`, {
    field: 'url',
    policy: openPolicy(),
  });
  assert.equal(await other.text(), 'lab data');
  assert.equal(isOwnAddress('127.0.0.1', allowed.port), false);
  assert.equal(isOwnAddress('192.0.2.77', port), false, 'another machine on labld’s port');
});

test('a worker thread sees the sockets the main thread listens on', async () => {
  const worker = new Worker(new URL('./own-sockets-worker.ts', import.meta.url), {
    env: SHARE_ENV,
    workerData: { port },
  });
  const answer = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(answer, { own: true, refused: 'forbidden' });
});

test('a process that does not listen (a consumer apart from its gateways) refuses the ports it is configured with', () => {
  const env = { BASE_URL: 'http://localhost:8123', PORT: '8124' };
  for (const address of ['127.0.0.1', '::1', '0.0.0.0', '127.0.1.1']) {
    assert.equal(isOwnAddress(address, 8123, env), true, address);
    assert.equal(isOwnAddress(address, 8124, env), true, address);
    assert.equal(isOwnAddress(address, 8125, env), false, address);
  }
  assert.equal(isOwnAddress('192.0.2.77', 8123, env), false, 'another machine');
  assert.equal(isOwnAddress('127.0.0.1', 443, { BASE_URL: 'https://lab.example' }), true);
});
