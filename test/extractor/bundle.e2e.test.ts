// POST /extractor/export_bundle end to end against the openBIS test double: the ZIP of a
// collection with two data sets holds every file byte for byte and a ro-crate-metadata.json
// that the RO-Crate validator from PyPI (roc-validator, in the venv LABLD_ROC_VENV that .ci/run
// makes; offline, its cache seeded by tools/rocrate/seed-context.py) passes at the ro-crate-1.1
// profile, RECOMMENDED level included; the original's {"graph": "<JSON-LD>"} body; a file
// that cannot be fetched is named (crate and trailers) without the data store's address; the
// ZIP streams while it is built, and a failure part-way aborts it; bad input.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.ts';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import { startLabld, testTransport, type Running } from '../support/labld.ts';
import { pointLabldAt, startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';
import { readSeed } from '../support/shared.ts';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { CRATE_MAPPING } from '../converter/crate.ts';

const BASE = 'http://labld.test';
const NS = `${BASE}/extractor/`;
const DATASET = '20240904142300681-40';
const SECOND = '20240904150000000-41';
const COLLECTION = '20240904142218052-25';
const VENV = process.env['LABLD_ROC_VENV'] || '/tmp/labld-rocvenv';
const VALIDATOR = join(VENV, 'bin', 'rocrate-validator');

/** Every entry of a ZIP: name → bytes. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await promisify<Buffer, yauzl.Options, yauzl.ZipFile>(yauzl.fromBuffer)(bytes, {
    lazyEntries: true,
  });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  trailers: NodeJS.Dict<string>;
  body: Buffer;
}

/** A POST through node:http, which (unlike fetch) gives the trailers; rejects when the answer is cut off. */
function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          trailers: res.trailers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The rest of a streamed body. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

describe(`export bundle (${testTransport()})`, () => {
  let labld: Running;
  let double: OpenbisDouble;
  let files: FileServer;
  /** The collection's bundle, from the first test. */
  let collectionZip: Buffer | undefined;
  let restore = (): void => {};
  const basic = `Basic ${Buffer.from('admin:changeit').toString('base64')}`;

  before(async () => {
    double = await startOpenbisDouble();
    double.data.addDataSetLike(DATASET, SECOND, [
      { path: 'original/force.csv', bytes: Buffer.from('time,force\n0,1.5\n1,2.25\n') },
      { path: 'original/raw/scan 1.bin', bytes: Buffer.from([0, 1, 2, 255, 254, 10, 13]) },
    ]);
    files = await startFileServer();
    // The converter fetches the mapping from the local file server.
    restore = pointLabldAt(double, BASE, { LABLD_FETCH_ALLOW: '127.0.0.1' });
    labld = await startLabld();
  });
  after(async () => {
    await labld?.stop();
    await double?.close();
    await files?.stop();
    restore();
  });

  const bundle = (body: unknown, contentType = 'application/json') =>
    fetch(`${labld.url}/extractor/export_bundle`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': contentType },
      body: JSON.stringify(body),
    });

  const bundleTrailed = (body: unknown) =>
    post(
      `${labld.url}/extractor/export_bundle`,
      { authorization: basic, 'content-type': 'application/json' },
      JSON.stringify(body),
    );

  it('bundles a collection with two data sets: every file byte for byte, and a valid RO-Crate 1.1', async () => {
    const res = await bundleTrailed([`${NS}collection/${COLLECTION}`]);
    assert.equal(res.status, 200, res.body.toString());
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.equal(res.trailers['x-bundle-missing'], '0');
    const zip = res.body;
    collectionZip = zip;
    const entries = await unzip(zip);
    for (const permId of [DATASET, SECOND]) {
      for (const file of double.data.files.get(permId) ?? []) {
        assert.deepEqual(entries.get(`${permId}/${file.path}`), file.bytes, `${permId}/${file.path}`);
      }
    }
    const crate = JSON.parse(entries.get('ro-crate-metadata.json')?.toString('utf8') ?? '{}') as {
      '@context': string;
      '@graph': Record<string, unknown>[];
    };
    const byId = new Map(crate['@graph'].map((e) => [e['@id'], e]));
    assert.deepEqual(byId.get('ro-crate-metadata.json')?.['conformsTo'], {
      '@id': 'https://w3id.org/ro/crate/1.1',
    });
    const root = byId.get('./');
    for (const key of ['name', 'description', 'license', 'datePublished'])
      assert.ok(root?.[key], `root ${key}`);
    const csv = byId.get(`${SECOND}/original/force.csv`);
    assert.equal(csv?.['@type'], 'File');
    const csvBytes = double.data.files.get(SECOND)?.find((f) => f.path === 'original/force.csv')?.bytes;
    assert.equal(csv?.['contentSize'], String(csvBytes?.length));
    assert.equal(csv?.['encodingFormat'], 'text/csv');
    assert.ok(byId.get(`${SECOND}/original/raw/scan%201.bin`), 'ids are URI paths');
    assert.ok(
      crate['@graph'].some((e) => e['@type'] === 'CreateAction'),
      'provenance as a CreateAction',
    );

    assert.ok(
      existsSync(VALIDATOR),
      `${VALIDATOR} missing: python3 -m venv ${VENV} && ${VENV}/bin/pip install roc-validator rocrate (or set LABLD_ROC_VENV)`,
    );
    const dir = tempDir('labld-crate-');
    writeFileSync(join(dir, 'bundle.zip'), zip);
    const cache = join(dir, 'http_cache');
    const run = promisify(execFile);
    await run(join(VENV, 'bin', 'python'), [
      new URL('../../tools/rocrate/seed-context.py', import.meta.url).pathname,
      cache,
    ]);
    const args = [
      '-y',
      'validate',
      '-p',
      'ro-crate-1.1',
      '-l',
      'recommended',
      '--offline',
      '--cache-path',
      cache,
      '--no-paging',
      '-v',
    ];
    const { stdout } = await run(VALIDATOR, [...args, join(dir, 'bundle.zip')], { timeout: 120_000 }).catch(
      (error: { stdout?: string }) =>
        assert.fail(`the validator refused the crate:\n${error.stdout ?? String(error)}`),
    );
    assert.match(stdout, /RO-Crate is a valid ro-crate-1\.1/);
  });

  it('the bundle feeds the converter: createrdfupload reads it through its crate metadata', async () => {
    assert.ok(collectionZip, 'the collection bundle of the first test');
    const form = new FormData();
    form.append('file', new Blob([collectionZip]), 'openbis-export.zip');
    const mapping = files.put('/crate-map.yaml', CRATE_MAPPING);
    const res = await fetch(
      `${labld.url}/converter/api/createrdfupload?mapping_url=${encodeURIComponent(mapping)}`,
      {
        method: 'POST',
        body: form,
      },
    );
    const body = (await res.json()) as { graph: string; num_mappings_applied: number };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.num_mappings_applied, 1);
    assert.match(body.graph, /openBIS export of 1 record/);
  });

  it('accepts the original\'s body, {"graph": "<JSON-LD>"}, selecting its data sets and files', async () => {
    const original = JSON.parse(readSeed('openbis-ontology/generated/export_bundle_request.json')) as {
      graph: string;
    };
    const graph = original.graph.replaceAll('https://openbismantic.matolab.org/openbismantic/', NS);
    const res = await bundle({ graph }, 'application/ld+json');
    assert.equal(res.status, 200, await res.clone().text());
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    assert.equal(entries.get(`${DATASET}/original/markdown_demo.md`)?.length, 4566);
  });

  it('names a file that cannot be fetched in the crate and in the answer', async () => {
    double.data.addFile(SECOND, 'original/gone.txt', Buffer.from('x'));
    double.unavailable.add(`${SECOND}/original/gone.txt`);
    const res = await bundleTrailed({ iris: [`${NS}dataset/${SECOND}`] });
    assert.equal(res.status, 200);
    assert.equal(res.headers['trailer'], 'x-bundle-missing, x-bundle-missing-files');
    assert.equal(res.trailers['x-bundle-missing'], '1');
    assert.equal(res.trailers['x-bundle-missing-files'], encodeURIComponent(`${SECOND}/original/gone.txt`));
    const entries = await unzip(res.body);
    assert.equal(entries.has(`${SECOND}/original/gone.txt`), false);
    assert.equal(entries.has(`${SECOND}/original/force.csv`), true);
    const crate = JSON.parse(entries.get('ro-crate-metadata.json')?.toString('utf8') ?? '{}') as {
      '@graph': Record<string, unknown>[];
    };
    const named = crate['@graph'].find(
      (e) => e['@id'] === `${NS}distribution/${SECOND}/original/gone.txt?download=1`,
    );
    assert.match(String(named?.['description']), /not in this bundle: .*404/);
    // The data store is openBIS's inside: its address stays out of what the caller gets.
    const host = new URL(double.origin).host;
    assert.equal(
      entries.get('ro-crate-metadata.json')?.toString('utf8').includes(host),
      false,
      'data store URL',
    );
    assert.equal(JSON.stringify(res.trailers).includes(host), false);
    const action = crate['@graph'].find((e) => e['@type'] === 'CreateAction');
    assert.match(String(action?.['error']), /original\/gone\.txt/);
    double.unavailable.clear();
  });

  it('fails a bundle whose file breaks off while it is written, at once: a {"detail"} or a cut-off answer', async () => {
    double.data.addFile(SECOND, 'original/cut.bin', Buffer.alloc(64 * 1024, 1));
    double.truncated.add(`${SECOND}/original/cut.bin`);
    const res = await bundle({ iris: [`${NS}distribution/${SECOND}/original/cut.bin`] });
    // Before the ZIP's first byte was out, an error status; after it, the answer is aborted.
    if (res.status === 200) await assert.rejects(res.arrayBuffer(), /terminated/);
    else {
      assert.ok(res.status >= 400 && res.status !== 500, String(res.status));
      assert.ok(((await res.json()) as { detail: string }).detail);
    }
    double.truncated.clear();
    const next = await bundle({ iris: [`${NS}distribution/${SECOND}/original/force.csv`] });
    assert.equal(next.status, 200, 'the service goes on');
    await next.arrayBuffer();
  });

  it('streams the ZIP while it is built, and aborts it when a file fails part-way', async () => {
    const SLOW = '20240904150000000-42';
    const slow = randomBytes(1024 * 1024);
    double.data.addDataSetLike(DATASET, SLOW, [{ path: 'original/slow.bin', bytes: slow }]);
    for (const completes of [true, false]) {
      let release: (go: boolean) => void = () => {};
      double.paused.set(`${SLOW}/original/slow.bin`, new Promise((resolve) => (release = resolve)));
      const res = await bundle([`${NS}dataset/${SLOW}`]);
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      // The data store holds the file after its first 64 KiB: the bundle cannot be complete yet.
      const first = await reader.read();
      assert.equal(first.done, false);
      assert.deepEqual(Buffer.from(first.value!.subarray(0, 4)), Buffer.from('PK\x03\x04'), 'a ZIP begins');
      release(completes);
      if (completes) {
        const entries = await unzip(Buffer.concat([first.value!, await drain(reader)]));
        assert.deepEqual(entries.get(`${SLOW}/original/slow.bin`), slow);
        assert.ok(entries.has('ro-crate-metadata.json'));
      } else {
        // No terminating chunk: the client cannot take the ZIP's first part for a whole one.
        await assert.rejects(drain(reader), /terminated/);
      }
    }
    double.paused.clear();
  });

  it('refuses bad selections with a 4xx naming the field', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ graph: '{not json' }, 422, /graph/],
      [
        { graph: '[{"@id": "https://elsewhere.example/x", "@type": "http://www.w3.org/ns/dcat#Dataset"}]' },
        422,
        /graph/,
      ],
      [['https://elsewhere.example/extractor/dataset/1'], 422, /iris/],
      [[`${NS}user/admin`], 422, /iris/],
      [Array.from({ length: 10_000 }, (_, i) => `${NS}dataset/${i}`), 413, /LABLD_EXTRACTOR_MAX_RECORDS/],
      [[`${NS}distribution/${DATASET}/original/..%2F..%2Fetc`], 422, /path|iris/],
      [[], 422, /iris/],
      [{ other: 1 }, 422, /other|additional/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await bundle(body);
      const answer = (await res.json()) as { detail: string };
      assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 80)}: ${answer.detail}`);
      assert.match(answer.detail, detail);
    }
  });
});
