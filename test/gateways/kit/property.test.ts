// Property: whatever a client sends to a validated route (random JSON, random query strings,
// random bytes under any content type), the answer is never a 5xx, and every 4xx is JSON with
// a string `detail`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from '../../support/fc.ts';
import { start, type Started } from './support.ts';

async function assertWellFormed(response: Response, what: string): Promise<void> {
  const text = await response.text();
  assert.ok(response.status < 500, `${what}: status ${response.status} ${text}`);
  if (response.status >= 400) {
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, what);
    const body = JSON.parse(text) as { detail?: unknown };
    assert.equal(typeof body.detail, 'string', `${what}: ${text}`);
  }
}

/** A query string of random keys and values, sometimes with broken percent-escapes. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('return_type', 'limit', 'flag', 'tags', 'mapping_url', '__proto__'),
        fc.string(),
      ),
      fc.oneof(fc.string(), fc.constantFrom('%', '%zz', '%E0%A4%A', 'true', '-1', '1e9', '101', '')),
      fc.boolean(),
    ),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs
      .map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join('&'),
  );

const contentTypes = fc.constantFrom(
  undefined,
  'application/json',
  'application/ld+json',
  'application/json; charset=latin1',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
);

describe('gateway kit: no input makes a validated route fail with 5xx', () => {
  let s: Started;
  let base: string;
  before(async () => {
    s = await start({ limits: { body: 4096, upload: 4096 } });
    base = `${s.url}/annotator`;
  });
  after(() => s.close());

  test('random JSON bodies', async () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        { data_url: fc.oneof(fc.webUrl(), fc.string(), fc.jsonValue()), encoding: fc.jsonValue() },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const response = await fetch(`${base}/api/annotate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(value),
        });
        await assertWellFormed(response, JSON.stringify(value));
      }),
      { numRuns: 150 },
    );
  });

  test('random query strings and path parameters', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, fc.string(), async (query, id) => {
        const items = await fetch(`${base}/api/items/${encodeURIComponent(id)}?${query}`);
        await assertWellFormed(items, `items ${id} ?${query}`);
        const annotate = await fetch(`${base}/api/annotate?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"data_url":"http://example.org/a.csv"}',
        });
        await assertWellFormed(annotate, `annotate ?${query}`);
      }),
      { numRuns: 150 },
    );
  });

  test('random bytes under any content type, to a JSON route and to an upload route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 6000 }),
        contentTypes,
        fc.constantFrom('/api/annotate', '/api/annotate_upload', '/api/createrdf'),
        async (bytes, type, path) => {
          const response = await fetch(`${base}${path}`, {
            method: 'POST',
            headers: type ? { 'content-type': type } : {},
            body: bytes,
          });
          await assertWellFormed(response, `${path} ${type} ${bytes.length} bytes`);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('random multipart bodies around the boundary', async () => {
    const part = fc.record({
      name: fc.oneof(fc.constantFrom('file', 'note', 'count'), fc.string()),
      filename: fc.option(fc.string(), { nil: undefined }),
      type: fc.option(fc.constantFrom('text/csv', 'application/octet-stream', ''), { nil: undefined }),
      content: fc.string({ maxLength: 200 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 4 }), fc.boolean(), async (parts, terminated) => {
        const boundary = 'fcboundary';
        let raw = '';
        for (const p of parts) {
          raw += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
          if (p.filename !== undefined) raw += `; filename="${p.filename}"`;
          raw += '\r\n';
          if (p.type !== undefined) raw += `Content-Type: ${p.type}\r\n`;
          raw += `\r\n${p.content}\r\n`;
        }
        if (terminated) raw += `--${boundary}--\r\n`;
        const response = await fetch(`${base}/api/annotate_upload`, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: raw,
        });
        await assertWellFormed(response, JSON.stringify(raw));
      }),
      { numRuns: 150 },
    );
  });
});
