// Multipart uploads: streamed to a kit-chosen path, the client's file name is metadata only,
// the file is removed after the response unless the handler keeps it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { json, start, type Started } from './support.ts';

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await delay(10);
  }
  assert.fail(`timed out waiting until ${what}`);
}

function form(content: string, filename: string, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([content], { type: 'text/csv' }), filename);
  return data;
}

describe('gateway kit: multipart uploads', () => {
  let s: Started;
  let url: string;
  before(async () => {
    s = await start({ limits: { body: 1024, upload: 64 * 1024 } });
    url = `${s.url}/annotator/api/annotate_upload`;
  });
  after(() => s.close());

  test('a hostile file name is only metadata; the bytes land in a fresh directory under LABLD_DATA/uploads', async () => {
    const response = await fetch(`${url}?return_type=turtle`, {
      method: 'POST',
      body: form('a,b\n1,2\n', '../../etc/passwd'),
    });
    assert.equal(response.status, 200);
    const body = await json(response);
    const stored = String(body.path);
    const uploads = path.join(s.dataDir, 'uploads');
    assert.equal(path.dirname(path.dirname(stored)), uploads);
    assert.equal(path.basename(stored), 'upload');
    assert.equal(body.filename, 'passwd');
    assert.equal(body.content, 'a,b\n1,2\n');
    assert.equal(body.size, 8);
    assert.equal(body.mimetype, 'text/csv');
    assert.deepEqual(body.query, { return_type: 'turtle' });
    await eventually(() => !existsSync(path.dirname(stored)), 'the upload directory is removed');
  });

  test('the file comes with the SHA-256 of its bytes, taken as they were written (the blob store keys it by that)', async () => {
    const content = 'Zeit [s];Kraft [kN]\n' + '0.02;1.5\n'.repeat(5000);
    const body = await json(await fetch(url, { method: 'POST', body: form(content, 'big.csv') }));
    assert.equal(body.content, content);
    assert.equal(body.sha256, createHash('sha256').update(content).digest('hex'));
  });

  test('a Windows-style path and a plain extension: name reduced, extension kept on disk', async () => {
    const body = await json(await fetch(url, { method: 'POST', body: form('x', 'C:\\Users\\me\\Data.CSV') }));
    assert.equal(body.filename, 'Data.CSV');
    assert.equal(path.basename(String(body.path)), 'upload.csv');
  });

  test('form fields are validated and coerced like query parameters', async () => {
    const ok = await json(await fetch(url, { method: 'POST', body: form('x', 'a.csv', { count: '3' }) }));
    assert.deepEqual(ok.fields, { count: 3 });
    const bad = await fetch(url, { method: 'POST', body: form('x', 'a.csv', { count: 'many' }) });
    assert.equal(bad.status, 422);
    assert.deepEqual(await bad.json(), { detail: 'body.count: must be integer' });
  });

  test('a handler that keeps the file owns it after the response', async () => {
    const body = await json(
      await fetch(url, { method: 'POST', body: form('kept', 'k.csv', { note: 'keep' }) }),
    );
    await delay(50);
    assert.ok(existsSync(String(body.path)), 'kept file is still there');
  });

  test('a file part without Content-Type (as Python requests sends it) is still the file', async () => {
    const boundary = 'labldboundary';
    const raw =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\n\r\n` +
      `x,y\r\n1,2\r\n` +
      `\r\n--${boundary}--\r\n`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: raw,
    });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.content, 'x,y\r\n1,2\r\n');
    assert.equal(body.mimetype, 'application/octet-stream');
  });

  test('422 without the file field, 415 for a body that is not multipart', async () => {
    const data = new FormData();
    data.append('note', 'no file');
    const missing = await fetch(url, { method: 'POST', body: data });
    assert.equal(missing.status, 422);
    assert.deepEqual(await missing.json(), {
      detail: 'body.file: is required: the multipart form has no "file" part',
    });
    const empty = await fetch(url, { method: 'POST' });
    assert.equal(empty.status, 422);
    await empty.arrayBuffer();
    const wrong = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b' });
    assert.equal(wrong.status, 415);
    assert.deepEqual(await wrong.json(), { detail: 'body: expected multipart/form-data, got text/csv' });
  });

  test('413 for a file over the upload limit (100 KB, 5 MB against 64 KB), and nothing is left on disk', async () => {
    const own = await start({ limits: { body: 1024, upload: 64 * 1024 } });
    try {
      const upload = (bytes: number) =>
        fetch(`${own.url}/annotator/api/annotate_upload`, {
          method: 'POST',
          body: form('z'.repeat(bytes), 'big.csv'),
        });
      // Within what the form's framing may add to the limits: counted as it is read.
      const over = await upload(100 * 1024);
      assert.equal(over.status, 413);
      assert.deepEqual(await over.json(), { detail: 'body.file: larger than the limit of 64 KB' });
      // Past it: refused from its Content-Length.
      const far = await upload(5 * 1024 * 1024);
      assert.equal(far.status, 413);
      assert.equal(far.headers.get('connection'), 'close');
      assert.match(String((await json(far)).detail), /^body: its Content-Length \(\d+ bytes\) is more than/);
      const uploads = path.join(own.dataDir, 'uploads');
      await eventually(async () => (await readdir(uploads)).length === 0, 'the upload directory is removed');
    } finally {
      await own.close();
    }
  });

  test('400 for a malformed multipart body', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=nothere' },
      body: '--other\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
    });
    assert.equal(response.status, 400);
    assert.match(String((await json(response)).detail), /^body: malformed multipart\/form-data/);
  });

  test('422 for two files in the file field', async () => {
    const data = form('one', 'a.csv');
    data.append('file', new Blob(['two']), 'b.csv');
    const response = await fetch(url, { method: 'POST', body: data });
    assert.equal(response.status, 422);
    assert.deepEqual(await response.json(), { detail: 'body.file: send exactly one file' });
  });
});

describe('gateway kit: a multipart route with a JSON alternative', () => {
  let s: Started;
  let url: string;
  before(async () => {
    s = await start({ limits: { body: 1024, upload: 64 * 1024 } });
    url = `${s.url}/annotator/api/createrdfupload`;
  });
  after(() => s.close());

  test('multipart still gives the file; JSON gives the validated body and no file', async () => {
    assert.deepEqual(await json(await fetch(url, { method: 'POST', body: form('x', 'a.json') })), {
      body: {},
      filename: 'a.json',
    });
    const viaJson = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data_content: '{}' }),
    });
    assert.deepEqual(await json(viaJson), { body: { data_content: '{}' }, filename: null });
  });

  test('the JSON alternative is validated against its schema; no body at all reaches the handler', async () => {
    const bad = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(bad.status, 422);
    assert.match(String((await json(bad)).detail), /data_content/);
    assert.deepEqual(await json(await fetch(url, { method: 'POST' })), { body: null, filename: null });
  });
});
