// JSON-LD: bundled contexts only; a remote context is refused before any request is made.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import jsonld from 'jsonld';
import { DataFactory } from 'n3';
import { DomainError } from '../../lib/process/errors.ts';
import { BUNDLED_CONTEXT_URLS, documentLoader, parse, serialize } from '../../lib/rdf/index.ts';
import { assertIsomorphic, seedFixture } from './support.ts';

const CSVW = 'http://www.w3.org/ns/csvw#';

describe('JSON-LD contexts', () => {
  // A context server on loopback that counts requests: it must never see one.
  let requests = 0;
  let contextUrl = '';
  const server = createServer((_req, res) => {
    requests++;
    res.setHeader('content-type', 'application/ld+json');
    res.end(JSON.stringify({ '@context': { name: 'http://schema.org/name' } }));
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    contextUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/context.jsonld`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a remote context with a 422 naming the URL and the field, without fetching it', async () => {
    const document = JSON.stringify({ '@context': contextUrl, '@id': 'http://e/x', name: 'x' });
    await assert.rejects(parse(document, 'json-ld', { field: 'metadata_url' }), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'invalid');
      assert.equal(error.field, 'metadata_url');
      assert.ok(error.message.startsWith('metadata_url: JSON-LD context '), error.message);
      assert.ok(error.message.includes(contextUrl), error.message);
      assert.match(error.message, /not allowed/);
      return true;
    });
    assert.equal(requests, 0);
  });

  it('refuses a remote context nested in an array, a scoped context and @import', async () => {
    const documents = [
      { '@context': [{ ex: 'http://e/' }, contextUrl], 'ex:p': 1 },
      { '@context': { ex: 'http://e/', t: { '@id': 'ex:t', '@context': contextUrl } }, t: { name: 'x' } },
      { '@context': { '@version': 1.1, '@import': contextUrl }, '@id': 'http://e/x' },
    ];
    for (const document of documents) {
      await assert.rejects(parse(JSON.stringify(document), 'json-ld'), /not allowed/);
    }
    assert.equal(requests, 0);
  });

  it('keeps jsonld from fetching even when a caller forgets the loader option', async () => {
    await assert.rejects(jsonld.expand({ '@context': contextUrl, name: 'x' }), (error: unknown) => {
      const cause = (error as { details?: { cause?: unknown } }).details?.cause;
      assert.ok(cause instanceof DomainError, String(error));
      assert.match(cause.message, /not allowed/);
      return true;
    });
    assert.equal(requests, 0);
  });

  it('serves the bundled CSVW context for its URL variants', async () => {
    assert.ok(BUNDLED_CONTEXT_URLS.includes('http://www.w3.org/ns/csvw'));
    for (const url of [
      'http://www.w3.org/ns/csvw',
      'https://www.w3.org/ns/csvw',
      'http://www.w3.org/ns/csvw.jsonld',
    ]) {
      const loaded = await documentLoader(url);
      assert.equal(loaded.documentUrl, url);
      const context = (loaded.document as { '@context': Record<string, unknown> })['@context'];
      assert.equal(context['csvw'], CSVW);
    }
    await assert.rejects(documentLoader('https://schema.org/'), DomainError);
  });

  it('hands out copies, so one caller cannot change the next one’s context', async () => {
    const first = await documentLoader('http://www.w3.org/ns/csvw');
    (first.document as Record<string, unknown>)['@context'] = {};
    const second = await documentLoader('http://www.w3.org/ns/csvw');
    assert.equal((second.document as { '@context': Record<string, unknown> })['@context']['csvw'], CSVW);
  });

  it('reads a CSVW descriptor offline through the bundled context', async () => {
    const text = readFileSync(seedFixture('datapipeline/sample.csvw.json'), 'utf8');
    const quads = await parse(text, 'json-ld', { baseIRI: 'https://example.org/sample.csvw.json' });
    const has = (p: string, o?: string) =>
      quads.some((q) => q.predicate.value === p && (o === undefined || q.object.value === o));
    assert.ok(has('http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${CSVW}TableGroup`));
    assert.ok(has(`${CSVW}table`));
    assert.ok(has(`${CSVW}tableSchema`));
    assert.equal(requests, 0);
  });

  it('compacts with a bundled context given by URL', async () => {
    const { namedNode, quad } = DataFactory;
    const quads = [
      quad(
        namedNode('https://example.org/t.csv'),
        namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        namedNode(`${CSVW}Table`),
      ),
    ];
    const text = await serialize(quads, 'json-ld', { context: 'http://www.w3.org/ns/csvw' });
    const document = JSON.parse(text) as Record<string, unknown>;
    assert.equal(document['@context'], 'http://www.w3.org/ns/csvw');
    assert.equal(document['@type'], 'Table');
    await assertIsomorphic(await parse(text, 'json-ld'), quads, 'csvw compaction');
  });

  it('compacts with the given prefixes and keeps literal forms', async () => {
    const { namedNode, literal, quad } = DataFactory;
    const quads = [
      quad(
        namedNode('http://example.org/s'),
        namedNode('http://example.org/v'),
        literal('180', namedNode('http://www.w3.org/2001/XMLSchema#double')),
      ),
    ];
    const document = JSON.parse(
      await serialize(quads, 'json-ld', { prefixes: { ex: 'http://example.org/' } }),
    );
    assert.deepEqual(document, {
      '@context': { ex: 'http://example.org/', xsd: 'http://www.w3.org/2001/XMLSchema#' },
      '@id': 'ex:s',
      'ex:v': { '@type': 'xsd:double', '@value': '180' },
    });
    // jsonld alone would read "180"^^xsd:double back as "1.8E2".
    await assertIsomorphic(await parse(JSON.stringify(document), 'json-ld'), quads, 'double lexical form');
  });

  it('reports malformed JSON as a 422', async () => {
    await assert.rejects(parse('{"@id": ', 'json-ld', { field: 'data_url' }), (error: unknown) => {
      assert.ok(error instanceof DomainError && error.kind === 'invalid');
      assert.match(error.message, /^data_url: could not parse the json-ld document: /);
      return true;
    });
  });
});
