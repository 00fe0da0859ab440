// Stored-file URLs over HTTP: an upload named in a descriptor is served by a random id and its
// name; content hashes, outputs of requests, claims and unpublished blobs never are.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { detailOf, get, postFile, startAnnotator, type Labld } from './e2e-support.ts';

let labld: Labld;

before(async () => {
  labld = await startAnnotator();
});
after(async () => {
  await labld?.stop();
});

const api = (path: string) => `${labld.annotator}${path}`;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const CSV = 'name;value\nalpha;1\nbeta;2\n';

async function upload(bytes: string, name: string): Promise<{ url: string; descriptor: Buffer }> {
  const reply = await postFile(api('/api/annotate_upload'), bytes, name);
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  return { url: (reply.json() as { '@id': string })['@id'], descriptor: reply.bytes };
}

function assertNotServed(reply: { status: number }, what: string): void {
  assert.equal(reply.status, 404, what);
}

describe('stored files: served by published id only', () => {
  it('an upload is served at its descriptor URL, whose id is 22 base64url characters, not the hash', async () => {
    const { url } = await upload(CSV, 'séries 1.csv');
    const match = /\/annotator\/files\/([A-Za-z0-9_-]{22})\/s%C3%A9ries%201\.csv$/.exec(url);
    assert.ok(match, url);
    assert.ok(!url.includes(sha256(CSV)));
    const reply = await get(url);
    assert.equal(reply.status, 200);
    assert.equal(reply.text, CSV);
    assert.match(reply.contentType, /^text\/csv\b/);
  });

  it('the content-hash URL of the same upload (the old form) is a 404 {detail}', async () => {
    await upload(CSV, 'data.csv');
    const reply = await get(api(`/files/${sha256(CSV)}/data.csv`));
    assertNotServed(reply, 'old sha256 URL');
    detailOf(reply);
  });

  it('the published id under another name is a 404', async () => {
    const { url } = await upload(CSV, 'data.csv');
    assertNotServed(await get(url.replace(/data\.csv$/, 'other.csv')), 'another name');
    assertNotServed(await get(url.replace(/data\.csv$/, 'data.json')), 'another extension');
  });

  it("another request's output (the descriptor blob) is not served, by hash or by any id", async () => {
    const { descriptor } = await upload(CSV, 'data.csv');
    assertNotServed(await get(api(`/files/${sha256(descriptor)}/data-metadata.json`)), 'output by hash');
    assertNotServed(await get(api(`/files/${'A'.repeat(22)}/data-metadata.json`)), 'a made-up id');
  });

  it('a client cannot name the blob to annotate: a `blob` query parameter is ignored', async () => {
    const secret = 'secret;column\nhidden;42\n';
    await upload(secret, 'secret.csv');
    const reply = await postFile(
      api(`/api/annotate_upload?blob=${sha256(secret)}&filename=secret.csv`),
      CSV,
      'mine.csv',
    );
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.ok(!reply.text.includes('secret'), 'the descriptor is of the uploaded file only');
    assert.ok(reply.text.includes('alpha') || reply.text.includes('value'), reply.text.slice(0, 300));
  });
});

describe('stored files: one route with the recorded type, name, ETag and ranges', () => {
  const latin1 = Buffer.from('Prüfer;Kraft\nMüller;1,5\nGöbel;2,5\nWeiß;3,5\n', 'latin1');

  it('a latin-1 CSV comes back with the same bytes and charset=iso-8859-1', async () => {
    const reply = await postFile(api('/api/annotate_upload'), latin1, 'prüfung.csv');
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    const url = (reply.json() as { '@id': string })['@id'];
    const back = await fetch(url);
    assert.equal(back.status, 200);
    assert.equal(back.headers.get('content-type'), 'text/csv; charset=iso-8859-1');
    assert.deepEqual(Buffer.from(await back.arrayBuffer()), latin1);
    assert.equal(
      back.headers.get('content-disposition'),
      `inline; filename="pr_fung.csv"; filename*=UTF-8''pr%C3%BCfung.csv`,
    );
    // A user's file: never sniffed into something else, never run with labld's origin.
    assert.equal(back.headers.get('x-content-type-options'), 'nosniff');
    assert.match(back.headers.get('content-security-policy') ?? '', /^sandbox; default-src 'none'/);
  });

  it('ETag with If-None-Match gives 304; a byte range gives 206 with Content-Range; beyond the end 416', async () => {
    const { url } = await upload(CSV, 'ranges.csv');
    const whole = await fetch(url);
    const etag = whole.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{64}"$/);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(whole.headers.get('content-type'), 'text/csv; charset=us-ascii');
    await whole.arrayBuffer();
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    const part = await fetch(url, { headers: { range: 'bytes=5-9' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 5-9/${CSV.length}`);
    assert.equal(await part.text(), CSV.slice(5, 10));
    const tail = await fetch(url, { headers: { range: 'bytes=-4' } });
    assert.equal(tail.status, 206);
    assert.equal(await tail.text(), CSV.slice(-4));
    const outside = await fetch(url, { headers: { range: `bytes=${CSV.length}-` } });
    assert.equal(outside.status, 416);
    assert.equal(outside.headers.get('content-range'), `bytes */${CSV.length}`);
    await outside.arrayBuffer();
    // A range of a changed file (If-Range with another ETag) gives the whole file.
    const stale = await fetch(url, { headers: { range: 'bytes=0-1', 'if-range': '"other"' } });
    assert.equal(stale.status, 200);
    assert.equal(await stale.text(), CSV);
  });
});
