// The tests' stand-in for the web: what it serves, what it refuses, and what its URLs look like.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { startFileServer, type FileServer } from './file-server.ts';

let files: FileServer;
const asked: string[] = [];

before(async () => {
  files = await startFileServer({
    fallback(path) {
      asked.push(path);
      return path === '/fallback.txt' || path.endsWith('/secret')
        ? { body: Buffer.from('from the fallback'), type: 'text/plain' }
        : undefined;
    },
  });
});
after(() => files.stop());

/** A GET with the path sent as written: fetch() would resolve `..` before sending. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(files.origin);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    })
      .on('error', reject)
      .end();
  });
}

test('a put file answers with its bytes, its content type and its length', async () => {
  const url = files.put('/data/a.csv', 'a;b\n1;2\n', 'text/csv');
  assert.equal(url, `${files.origin}/data/a.csv`);
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/csv');
  assert.equal(res.headers.get('content-length'), '8');
  assert.equal(await res.text(), 'a;b\n1;2\n');
});

test('bytes go out unchanged, and without a type no Content-Type is sent', async () => {
  const bytes = Buffer.from([0xe4, 0x00, 0xff, 0x0a]);
  const res = await fetch(files.put('/raw.bin', bytes));
  assert.equal(res.headers.get('content-type'), null);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  assert.deepEqual(files.get('/raw.bin')?.body, bytes);
});

test('url() percent-encodes each segment and the server decodes it back', async () => {
  const url = files.put('/dir/my file.csv', 'x', 'text/csv');
  assert.equal(url, `${files.origin}/dir/my%20file.csv`);
  assert.equal(await (await fetch(url)).text(), 'x');
});

test('a path nothing was put at goes to the fallback, then is a 404', async () => {
  assert.equal(await (await fetch(files.url('/fallback.txt'))).text(), 'from the fallback');
  const missing = await fetch(files.url('/nothing.txt'));
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), 'not found');
  assert.ok(asked.includes('/nothing.txt'));
});

test('a path that climbs (`..`, also percent-encoded) is a 404 and never reaches the fallback', async () => {
  asked.length = 0;
  for (const path of ['/a/../secret', '/%2E%2E/secret', '/..%2Fsecret']) {
    assert.equal((await rawGet(path)).status, 404, path);
  }
  assert.equal(files.get('/../secret'), undefined);
  assert.deepEqual(asked, []);
  assert.equal((await rawGet('/x/secret')).body, 'from the fallback');
});

test('a malformed percent-encoding is a 404, not a crash', async () => {
  assert.equal((await rawGet('/%E0%A4%A')).status, 404);
  assert.equal((await fetch(files.url('/fallback.txt'))).status, 200);
});
