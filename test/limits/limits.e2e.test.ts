// The limits through HTTP. JSON body depth: a body nesting an extra property 100,000 levels
// deep (issue 11: a 500 from JSON.stringify) is a 422 naming the property and
// LABLD_MAX_DEPTH on the annotator and the mapper; a body at the limit is still served. And
// the findings' documents: 50,000 nested RDF/XML elements given as a `url` (the process froze
// for minutes), a DTD, and a 520,000-column upload (a 330 MB descriptor).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  detailOf,
  get,
  postFile,
  postJson,
  startAnnotator,
  startSeedServer,
  type Labld,
  type SeedServer,
} from '../annotator/e2e-support.ts';
import { maxDepth } from '../../lib/limits.ts';

const LIMIT = maxDepth();
const DEEP = 100_000;
const objects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const arrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

let labld: Labld;
let files: SeedServer;
let base: string;

before(async () => {
  files = await startSeedServer();
  labld = await startAnnotator();
  base = labld.running.url.replace(/\/$/, '');
});

after(async () => {
  await labld.stop();
  await files.stop();
});

describe('JSON body depth (LABLD_MAX_DEPTH) over HTTP', () => {
  it('/annotator/api/annotate: 100,000 levels of objects or arrays in `x` is a 422 naming x', async () => {
    for (const deep of [objects(DEEP), arrays(DEEP)]) {
      const body = `{"data_url": "${files.base}example.csv", "x": ${deep}}`;
      const reply = await postJson(`${base}/annotator/api/annotate`, body);
      assert.equal(reply.status, 422, reply.text.slice(0, 200));
      assert.equal(detailOf(reply), `x: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
    }
  });

  it('/annotator/api/annotate: a body nested to the limit is annotated', async () => {
    // The body object is level 1, so `x` may hold LIMIT - 1 levels.
    const body = `{"data_url": "${files.base}example.csv", "x": ${arrays(LIMIT - 1)}}`;
    const reply = await postJson(`${base}/annotator/api/annotate`, body);
    assert.equal(reply.status, 200, reply.text.slice(0, 200));
    assert.ok((reply.json() as { tables?: unknown[] }).tables?.length);
    const over = `{"data_url": "${files.base}example.csv", "x": ${arrays(LIMIT)}}`;
    assert.equal((await postJson(`${base}/annotator/api/annotate`, over)).status, 422);
  });

  it('/mapper/api/mapping: a deep `map` value is a 422 naming map', async () => {
    const body =
      `{"data_url": "${files.base}a-metadata.json", "template_url": "${files.base}t.ttl", ` +
      `"map": {"SpecimenID": ${objects(DEEP)}}}`;
    const reply = await postJson(`${base}/mapper/api/mapping`, body);
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.equal(detailOf(reply), `map: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
  });

  it('a deep top-level array body is a 422 naming body', async () => {
    const reply = await postJson(`${base}/mapper/api/mapping`, arrays(DEEP));
    assert.equal(reply.status, 422);
    assert.equal(detailOf(reply), `body: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
  });
});

describe('documents past the limits over HTTP', () => {
  it('/mapper/api/types: 50,000 nested rdf:Description/property elements are a 422 naming url, at once', async () => {
    const pairs = 25_000;
    const xml =
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">' +
      '<rdf:Description><ex:p>'.repeat(pairs) +
      '<rdf:Description ex:v="x"/>' +
      '</ex:p></rdf:Description>'.repeat(pairs) +
      '</rdf:RDF>';
    const url = files.put('deep.rdf', xml, 'application/rdf+xml');
    const started = performance.now();
    const reply = await get(`${base}/mapper/api/types?url=${encodeURIComponent(url)}`);
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.equal(detailOf(reply), `url: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
    assert.ok(performance.now() - started < 10_000, `took ${performance.now() - started} ms`);
  });

  it('/mapper/api/types: RDF/XML with an internal entity is a 422 naming url', async () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY t "http://ex.org/T">]>' +
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description rdf:about="http://ex.org/s"><rdf:type rdf:resource="&t;"/></rdf:Description></rdf:RDF>';
    const url = files.put('dtd.rdf', xml, 'application/rdf+xml');
    const reply = await get(`${base}/mapper/api/types?url=${encodeURIComponent(url)}`);
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.match(detailOf(reply), /^url: the XML has a document type declaration/);
  });

  it('/annotator/api/annotate_upload: 520,000 one-character columns are a 413 naming file', async () => {
    const wide = ['a', '1', '2'].map((cell) => `${`${cell};`.repeat(519_999)}${cell}\n`).join('');
    const reply = await postFile(`${base}/annotator/api/annotate_upload`, wide, 'wide.csv');
    assert.equal(reply.status, 413, reply.text.slice(0, 200));
    assert.match(detailOf(reply), /^file: line 1 has more than \d+ columns \(LABLD_MAX_COLUMNS\)$/);
  });
});
