// The headers of a user's file (gateways/kit/user-file.ts) and the media types and names they
// rest on (lib/blobs/served.ts): what is shown inline, what is a download, what is never sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundedFileName, isMediaType } from '../../../lib/blobs/served.ts';
import { contentDisposition, userFileHeaders } from '../../../gateways/kit/user-file.ts';

describe('media types', () => {
  test('type/subtype with parameters is one; CR, LF, a lone word or a space inside is not', () => {
    for (const good of ['text/csv', 'text/csv; charset=utf-8', 'application/ld+json', 'a/b;q="x y"'])
      assert.ok(isMediaType(good), good);
    for (const bad of ['text/html\r\nX-Injected: 1', 'text', 'text/ html', '', 'text/csv; charset', 'é/x'])
      assert.ok(!isMediaType(bad), bad);
  });
});

describe('inline or download', () => {
  const kind = (type: string) => /^\w+/.exec(userFileHeaders(type, 'f').headers['content-disposition']!)![0];
  test('text, data and raster images are inline; PDF, HTML, JS, SVG, XML and unknown types are downloads', () => {
    for (const type of [
      'text/csv',
      'text/plain; charset=iso-8859-1',
      'text/turtle',
      'image/png',
      'application/json',
    ])
      assert.equal(kind(type), 'inline', type);
    for (const type of [
      'text/html',
      'application/javascript',
      'text/javascript',
      'image/svg+xml',
      'application/xml',
      'text/xml',
      'application/xhtml+xml',
      'application/pdf',
      'application/x-unknown',
      'application/octet-stream',
    ])
      assert.equal(kind(type), 'attachment', type);
  });

  test('a bad stored type is sent as application/octet-stream, a download', () => {
    const served = userFileHeaders('text/html\r\nX-Injected: 1', 'f.html');
    assert.equal(served.contentType, 'application/octet-stream');
    assert.match(served.headers['content-disposition']!, /^attachment;/);
  });

  test('every user file: nosniff and a sandbox CSP', () => {
    const { headers } = userFileHeaders('text/csv', 'f.csv');
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.match(headers['content-security-policy']!, /^sandbox; default-src 'none'/);
  });
});

describe('file names', () => {
  test('Content-Disposition: an ASCII fallback without quote, backslash or %, and the exact name in filename*', () => {
    assert.equal(
      contentDisposition('attachment', `a "b"\\%20'(x)*!é.csv`),
      `attachment; filename="a _b___20'(x)*!_.csv"; filename*=UTF-8''a%20%22b%22%5C%2520%27%28x%29%2A%21%C3%A9.csv`,
    );
  });

  test('a name within 255 UTF-8 bytes is kept; a longer one is cut on a character, extension kept', () => {
    assert.equal(boundedFileName('a.csv'), 'a.csv');
    const cut = boundedFileName(`${'😀'.repeat(100)}.csv`);
    assert.equal(cut, `${'😀'.repeat(62)}.csv`);
    assert.ok(Buffer.byteLength(cut) <= 255);
    assert.equal(boundedFileName('x'.repeat(300)), 'x'.repeat(255));
  });
});
