// The guarded fetch against real local servers: bodies, size and time limits, upstream errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../../lib/process/errors.ts';
import { guardedFetch, UpstreamError } from '../../lib/fetch/guarded-fetch.ts';
import { rejectsWith, serve, testPolicy, type TestServer } from './helpers.ts';

let server: TestServer;

before(async () => {
  server = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/data.csv':
        res.setHeader('content-type', 'text/csv; charset=utf-8');
        res.end('a,b\n1,°C\n');
        return;
      case '/latin1':
        res.setHeader('content-type', 'text/plain; charset=iso-8859-1');
        res.end(Buffer.from([0x42, 0xb0]));
        return;
      case '/chunks': {
        // Chunked, no Content-Length: only counting while streaming can stop it.
        const count = Number(url.searchParams.get('n'));
        for (let i = 0; i < count; i++) res.write(Buffer.alloc(100, 0x61));
        res.end();
        return;
      }
      case '/bulk': {
        // n × 64 KB written at once: the body is there as fast as the socket takes it.
        const count = Number(url.searchParams.get('n'));
        for (let i = 0; i < count; i++) res.write(Buffer.alloc(65536, 0x62));
        res.end();
        return;
      }
      case '/declared':
        res.setHeader('content-length', '5000');
        res.write('x');
        return; // never finishes: the declared length alone must refuse it
      case '/stall':
        return; // never answers
      case '/slow-body':
        res.write('start');
        return; // headers arrive, the body never ends
      case '/auth':
        res.end(req.headers.authorization ?? 'none');
        return;
      case '/headers':
        res.end(JSON.stringify({ accept: req.headers.accept, encoding: req.headers['accept-encoding'] }));
        return;
      default:
        res.statusCode = 404;
        res.end('missing');
    }
  });
});
after(() => server.close());

test('a small body is read as text, with status, url and headers', async () => {
  const res = await guardedFetch(`${server.origin}/data.csv`, { field: 'data_url', policy: testPolicy() });
  assert.equal(res.status, 200);
  assert.equal(res.url, `${server.origin}/data.csv`);
  assert.equal(res.contentType, 'text/csv; charset=utf-8');
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(res.contentLength, Buffer.byteLength('a,b\n1,°C\n'));
  assert.equal(await res.text(), 'a,b\n1,°C\n');
});

test('text() honours the charset of the content type', async () => {
  const res = await guardedFetch(`${server.origin}/latin1`, { field: 'data_url', policy: testPolicy() });
  assert.equal(await res.text(), 'B°');
});

test('the body streams in chunks up to the limit', async () => {
  const policy = testPolicy({ maxBytes: 100_000 });
  const res = await guardedFetch(`${server.origin}/chunks?n=500`, { field: 'data_url', policy });
  let total = 0;
  for await (const chunk of res.body) total += (chunk as Buffer).length;
  assert.equal(total, 50_000);
});

test('bytes() returns the whole body', async () => {
  const res = await guardedFetch(`${server.origin}/chunks?n=10`, { field: 'data_url', policy: testPolicy() });
  const bytes = await res.bytes();
  assert.equal(bytes.length, 1000);
});

test('a body exactly at the limit passes', async () => {
  const policy = testPolicy({ maxBytes: 1000 });
  const res = await guardedFetch(`${server.origin}/chunks?n=10`, { field: 'data_url', policy });
  assert.equal((await res.bytes()).length, 1000);
});

test('a declared Content-Length over the limit is refused before reading', async () => {
  await rejectsWith(
    guardedFetch(`${server.origin}/declared`, { field: 'data_url', policy: testPolicy() }),
    'too-large',
    'data_url: ',
    '/declared',
    'body of 5000 bytes is larger than the limit of 1024 bytes (LABLD_FETCH_MAX_BYTES)',
  );
});

test('a chunked body over the limit fails while streaming, for text() and for iteration', async () => {
  const policy = testPolicy({ maxBytes: 1000 });
  const url = `${server.origin}/chunks?n=50`;
  const res = await guardedFetch(url, { field: 'rdf_url', policy });
  await rejectsWith(res.text(), 'too-large', 'rdf_url: ', 'larger than the limit of 1000 bytes');
  const again = await guardedFetch(url, { field: 'rdf_url', policy });
  await rejectsWith(
    (async () => {
      for await (const _chunk of again.body) {
        // reading until the limit stops us
      }
    })(),
    'too-large',
  );
});

test('a server that never answers hits the total time limit', async () => {
  const started = Date.now();
  await rejectsWith(
    guardedFetch(`${server.origin}/stall`, { field: 'data_url', policy: testPolicy({ timeoutMs: 300 }) }),
    'upstream-timeout',
    'data_url: ',
    'timed out: no complete answer within 300 ms (LABLD_FETCH_TIMEOUT_MS)',
  );
  assert.ok(Date.now() - started < 1500);
});

test('a body that never ends hits the total time limit while streaming', async () => {
  const policy = testPolicy({ timeoutMs: 300 });
  const res = await guardedFetch(`${server.origin}/slow-body`, { field: 'data_url', policy });
  await rejectsWith(res.text(), 'upstream-timeout', 'LABLD_FETCH_TIMEOUT_MS');
});

test('a timed-out body nobody reads does not crash the process', async () => {
  const policy = testPolicy({ timeoutMs: 100 });
  const res = await guardedFetch(`${server.origin}/slow-body`, { field: 'data_url', policy });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(res.body.destroyed);
  await rejectsWith(res.text(), 'upstream-timeout');
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a slow reader of a fast body is not timed out: the limit counts the upstream, not the reader', async () => {
  // 3.2 MB sent at once; the reader takes its time, well past the limit.
  const policy = testPolicy({ timeoutMs: 1000, maxBytes: 4 * 1024 * 1024 });
  const res = await guardedFetch(`${server.origin}/bulk?n=50`, { field: 'data_url', policy });
  let bytes = 0;
  const started = Date.now();
  for await (const chunk of res.body) {
    bytes += (chunk as Buffer).length;
    await sleep(150);
  }
  assert.equal(bytes, 50 * 65536);
  assert.ok(Date.now() - started > 2000, 'the reader was slower than twice the limit');
});

test('a reader that stops reading for a whole limit ends the fetch', async () => {
  const policy = testPolicy({ timeoutMs: 200, maxBytes: 4 * 1024 * 1024 });
  const res = await guardedFetch(`${server.origin}/bulk?n=25`, { field: 'data_url', policy });
  const reading = (async () => {
    for await (const _chunk of res.body) await sleep(1000);
  })();
  await rejectsWith(reading, 'upstream-timeout', 'LABLD_FETCH_TIMEOUT_MS');
});

test('an offline labld fetches nothing: the refusal names the field, the URL and the setting', async () => {
  let asked = 0;
  const counting = await serve((_req, res) => {
    asked++;
    res.end('never');
  });
  try {
    await rejectsWith(
      guardedFetch(`${counting.origin}/template.ttl`, {
        field: 'template_url',
        policy: testPolicy({ offline: true }),
      }),
      'unreachable',
      `template_url: ${counting.origin}/template.ttl could not be fetched: labld is offline (LABLD_FETCH_OFFLINE)`,
    );
    assert.equal(asked, 0);
  } finally {
    await counting.close();
  }
});

test('slow name resolution hits the connect time limit', async () => {
  const policy = testPolicy({
    connectTimeoutMs: 150,
    resolve: () => new Promise(() => {}),
  });
  await rejectsWith(
    guardedFetch('http://slow.test/x', { field: 'data_url', policy }),
    'upstream-timeout',
    'data_url: http://slow.test/x timed out: could not connect within 150 ms (LABLD_FETCH_CONNECT_TIMEOUT_MS)',
  );
});

test('an upstream 404 is unreachable, naming the field, URL and upstream status', async () => {
  const url = `${server.origin}/nothing-here`;
  const work = guardedFetch(url, { field: 'mapping_url', policy: testPolicy() });
  await rejectsWith(work, 'unreachable', `mapping_url: ${url} could not be fetched: upstream answered 404`);
  await assert.rejects(
    guardedFetch(url, { field: 'mapping_url', policy: testPolicy() }),
    (error) =>
      error instanceof UpstreamError && error.upstreamStatus === 404 && error.field === 'mapping_url',
  );
});

test('an unknown host is a 422 "host not found"', async () => {
  await rejectsWith(
    guardedFetch('http://no-such-host.test/x', { field: 'data_url', policy: testPolicy() }),
    'unreachable',
    'data_url: http://no-such-host.test/x could not be fetched: host not found',
  );
});

test('a closed port is a 422 "connection refused"', async () => {
  const closed = await serve(() => {});
  await closed.close();
  await rejectsWith(
    guardedFetch(`${closed.origin}/x`, { field: 'data_url', policy: testPolicy() }),
    'unreachable',
    'connection refused',
  );
});

test('accept is sent, compression is not asked for', async () => {
  const res = await guardedFetch(`${server.origin}/headers`, {
    field: 'template_url',
    policy: testPolicy(),
    accept: 'application/ld+json',
  });
  assert.deepEqual(JSON.parse(await res.text()), { accept: 'application/ld+json', encoding: 'identity' });
});

test('credentials in the URL become Basic auth and never appear in errors', async () => {
  const res = await guardedFetch(`http://user:s3cret@127.0.0.1:${server.port}/auth`, {
    field: 'data_url',
    policy: testPolicy(),
  });
  assert.equal(await res.text(), `Basic ${Buffer.from('user:s3cret').toString('base64')}`);
  assert.equal(res.url, `${server.origin}/auth`);
  await assert.rejects(
    guardedFetch(`http://user:s3cret@127.0.0.1:${server.port}/missing`, {
      field: 'data_url',
      policy: testPolicy(),
    }),
    (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.ok(!error.message.includes('s3cret'), error.message);
      assert.ok(!error.message.includes('user'), error.message);
      assert.ok(error.message.includes(`http://***@127.0.0.1:${server.port}/missing`), error.message);
      return true;
    },
  );
});

test('a forwarded authorization header is sent', async () => {
  const res = await guardedFetch(`${server.origin}/auth`, {
    field: 'data_url',
    policy: testPolicy(),
    authorization: 'Bearer abc',
  });
  assert.equal(await res.text(), 'Bearer abc');
});

test('the caller can abort; its reason is thrown as is', async () => {
  const controller = new AbortController();
  const work = guardedFetch(`${server.origin}/stall`, {
    field: 'data_url',
    policy: testPolicy({ timeoutMs: 5000 }),
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(new Error('shutting down')), 50);
  await assert.rejects(work, /shutting down/);
});

test('fetches under one policy reuse a kept-alive connection; a refused address still is refused', async () => {
  const peers = new Set<number>();
  const counting = await serve((req, res) => {
    peers.add(req.socket.remotePort ?? 0);
    res.end('ok');
  });
  try {
    const policy = testPolicy();
    for (let i = 0; i < 5; i++) {
      const res = await guardedFetch(`${counting.origin}/x`, { field: 'data_url', policy });
      assert.equal(await res.text(), 'ok');
      // The socket returns to the pool once undici has seen the response end.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(peers.size, 1, 'one connection for five sequential fetches');
    await rejectsWith(
      guardedFetch(`http://127.0.0.2:${counting.port}/x`, { field: 'data_url', policy }),
      'forbidden',
      '127.0.0.2',
    );
  } finally {
    await counting.close();
  }
});
