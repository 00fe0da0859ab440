// Multipart uploads through labld, in words: errors about the uploaded file name `file` (not the
// JSON form's `data_content` or `data_url`), an empty form says it has no `file` part, a part
// with thousands of headers is refused by its limit, and no upload folder is left behind.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_PART_HEADERS } from '../../gateways/kit/upload.ts';
import { startFixtureServer, type FixtureServer } from '../converter/fixture-server.ts';
import { startLabld, type Running } from '../support/labld.ts';

let labld: Running & { dataDir: string };
let files: FixtureServer;
let mappingUrl: string;

before(async () => {
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  files = await startFixtureServer();
  labld = await startLabld();
  mappingUrl = encodeURIComponent(files.url('/csvw-template-map.yaml'));
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

const createrdfupload = () => `${labld.url}/converter/api/createrdfupload?mapping_url=${mappingUrl}`;
const normalizeyarrrml = () => `${labld.url}/converter/api/normalizeyarrrml`;
const annotateUpload = () => `${labld.url}/annotator/api/annotate_upload`;

async function answer(response: Response): Promise<{ status: number; detail: string }> {
  const body = (await response.json()) as { detail?: unknown };
  return { status: response.status, detail: String(body.detail) };
}

function form(bytes: string, name: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([bytes]), name);
  return data;
}

/** A hand-written multipart body (fetch's FormData cannot add headers to a part). */
function rawForm(partHeaders: string[], content: string): { body: string; headers: Record<string, string> } {
  const head = ['Content-Disposition: form-data; name="file"; filename="data.csv"', ...partHeaders];
  return {
    body: `--b0und\r\n${head.join('\r\n')}\r\n\r\n${content}\r\n--b0und--\r\n`,
    headers: { 'content-type': 'multipart/form-data; boundary=b0und' },
  };
}

const uploadsLeft = () => {
  try {
    return readdirSync(join(labld.dataDir, 'uploads'));
  } catch {
    return [];
  }
};

describe('multipart uploads: errors name the form field `file`', () => {
  it('createrdfupload: an uploaded file that is no data document is a 422 naming `file`, not data_content', async () => {
    for (const [bytes, name] of [
      ['hello world', 'notes.txt'],
      ['{"a":', 'broken.json'],
    ] as const) {
      const reply = await answer(await fetch(createrdfupload(), { method: 'POST', body: form(bytes, name) }));
      assert.equal(reply.status, 422, reply.detail);
      assert.match(reply.detail, /^file: /);
      assert.doesNotMatch(reply.detail, /data_content/);
    }
  });

  it("createrdfupload: the original's JSON form still names data_content", async () => {
    const response = await fetch(createrdfupload(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mapping_url: decodeURIComponent(mappingUrl),
        data_url: 'http://example.org/d.json',
        data_content: '{"a":',
      }),
    });
    const reply = await answer(response);
    assert.equal(reply.status, 422, reply.detail);
    assert.match(reply.detail, /^data_content: /);
  });
});

describe('multipart uploads: an empty form says it has no `file` part', () => {
  const empties: Array<[string, RequestInit]> = [
    ['an empty multipart body', { body: '--b0und--\r\n' }],
    ['a multipart Content-Type without a body', {}],
    [
      'a form with text fields only',
      { body: '--b0und\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--b0und--\r\n' },
    ],
  ];
  for (const [what, init] of empties) {
    for (const [endpoint, url] of [
      ['createrdfupload', createrdfupload],
      ['normalizeyarrrml', normalizeyarrrml],
      ['annotate_upload', annotateUpload],
    ] as const) {
      it(`${endpoint}: ${what}`, async () => {
        const reply = await answer(
          await fetch(url(), {
            method: 'POST',
            headers: { 'content-type': 'multipart/form-data; boundary=b0und' },
            ...init,
          }),
        );
        assert.equal(reply.status, 422, reply.detail);
        assert.equal(reply.detail, 'body.file: is required: the multipart form has no "file" part');
      });
    }
  }

  it('createrdfupload with no body at all names the file field and the JSON alternative, not data_url', async () => {
    const reply = await answer(await fetch(createrdfupload(), { method: 'POST' }));
    assert.equal(reply.status, 422, reply.detail);
    assert.match(reply.detail, /^body\.file: is required: send the data as the multipart field "file"/);
    assert.doesNotMatch(reply.detail, /^data_url/);
  });
});

describe('multipart uploads: headers of a part are limited', () => {
  it(`a part with 5,000 headers is a 413 naming the limit of ${MAX_PART_HEADERS}`, async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `X-Filler: value ${i}`);
    for (const url of [annotateUpload(), createrdfupload(), normalizeyarrrml()]) {
      const { body, headers } = rawForm(many, 'a;b\n1;2\n');
      const reply = await answer(await fetch(url, { method: 'POST', headers, body }));
      assert.equal(reply.status, 413, reply.detail);
      assert.equal(
        reply.detail,
        `body: a multipart part has more than ${MAX_PART_HEADERS} headers (the limit per part)`,
      );
    }
  });

  it('one part header of 100 KB is a 413 naming the size limit', async () => {
    const { body, headers } = rawForm([`X-Filler: ${'v'.repeat(100_000)}`], 'a;b\n1;2\n');
    const reply = await answer(await fetch(annotateUpload(), { method: 'POST', headers, body }));
    assert.equal(reply.status, 413, reply.detail);
    assert.match(reply.detail, /^body: a multipart part's headers are larger than the limit of 16 KB/);
  });

  it(`a part with ${MAX_PART_HEADERS} headers is still read`, async () => {
    const some = Array.from({ length: MAX_PART_HEADERS - 1 }, (_, i) => `X-Filler: value ${i}`);
    const { body, headers } = rawForm(some, 'a;b\n1;2\n');
    const response = await fetch(annotateUpload(), { method: 'POST', headers, body });
    assert.equal(response.status, 200, await response.text());
  });
});

describe('multipart uploads: no upload folder is left behind', () => {
  it('after a success, a domain error, a gateway refusal and a malformed body, LABLD_DATA/uploads is empty', async () => {
    const ok = await fetch(annotateUpload(), { method: 'POST', body: form('a;b\n1;2\n', 'ok.csv') });
    assert.equal(ok.status, 200);
    const refusedByDomain = await fetch(annotateUpload(), { method: 'POST', body: form('', 'empty.csv') });
    assert.equal(refusedByDomain.status, 422);
    const converted = await fetch(createrdfupload(), { method: 'POST', body: form('hello', 'x.txt') });
    assert.equal(converted.status, 422);
    const { body, headers } = rawForm(
      Array.from({ length: 100 }, () => 'X-Filler: v'),
      'a',
    );
    assert.equal((await fetch(annotateUpload(), { method: 'POST', headers, body })).status, 413);
    const cut = await fetch(annotateUpload(), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0und' },
      body: '--b0und\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na;b',
    });
    assert.equal(cut.status, 400);
    for (const response of [ok, refusedByDomain, converted, cut]) await response.arrayBuffer();
    // Folders go when the response has closed; give the file system a moment.
    for (let i = 0; i < 20 && uploadsLeft().length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(uploadsLeft(), []);
  });
});
