// Results written on a render thread (lib/triplestore/render.ts): the same text as written at
// once (results.ts), from the value or from its claim's file; a result that cannot be written
// is an error before any byte; a client that stops reading frees its thread.
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { test } from 'node:test';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { DomainError } from '../../lib/process/errors.ts';
import type { QueryResult } from '../../lib/triplestore/contract.ts';
import { renderStream } from '../../lib/triplestore/render.ts';
import { checkInResult, isStored } from '../../lib/triplestore/result-claim.ts';
import { renderResult } from '../../lib/triplestore/results.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';

const ROWS = 20_000;

function table(): QueryResult {
  const bindings = Array.from({ length: ROWS }, (_, i) => ({
    s: { type: 'uri', value: `urn:x:${i}` },
    o: { type: 'literal', value: `a "value", <${i}>`, 'xml:lang': 'en' },
  }));
  return {
    type: 'select',
    rows: ROWS,
    mediaType: 'application/sparql-results+json',
    text: JSON.stringify({ head: { vars: ['s', 'o'] }, results: { bindings } }),
  };
}

function graph(predicate = 'http://example.org/p'): QueryResult {
  let ntriples = '';
  for (let i = 0; i < ROWS; i++) ntriples += `<urn:x:${i}> <${predicate}> "v${i}" .\n`;
  return { type: 'graph', mediaType: 'application/n-triples', text: ntriples, triples: ROWS };
}

test('every type, from the claim the consumer checked in, as written at once', async () => {
  const dir = tempDir('labld-render-');
  try {
    const blobs = blobStoreIn(dir);
    for (const [result, types] of [
      [
        table(),
        [
          'application/sparql-results+json',
          'application/sparql-results+xml',
          'text/csv',
          'text/tab-separated-values',
        ],
      ],
      [graph(), ['text/turtle', 'application/n-triples', 'application/ld+json', 'application/rdf+xml']],
    ] as const) {
      const stored = await checkInResult(blobs, result);
      assert.ok(isStored(stored), 'a result this large travels as a claim');
      const path = blobs.path(stored.blob);
      for (const type of types) {
        const expected = await renderResult(result, type);
        const streamed = await renderStream({ stored, path }, type);
        assert.equal(streamed.contentType, expected.contentType);
        assert.equal(await text(streamed.body), expected.body, type);
      }
    }
  } finally {
    removeTempDir(dir);
  }
});

test('a graph RDF/XML cannot express is an error before any byte', async () => {
  await assert.rejects(
    renderStream({ value: graph('urn:p:') }, 'application/rdf+xml'),
    (error: unknown) =>
      error instanceof DomainError && error.kind === 'invalid' && /RDF\/XML/.test(error.message),
  );
});

test('streams left unread and ended free their render threads', async () => {
  // More than the pool holds: each would wait for a thread were the ended ones kept.
  for (let i = 0; i < 5; i++) {
    const streamed = await renderStream({ value: graph() }, 'application/n-triples');
    streamed.body.destroy();
  }
  const last = await renderStream({ value: graph() }, 'text/turtle');
  assert.match(await text(last.body), /<urn:x:19999>/);
});
