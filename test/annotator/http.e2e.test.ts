// The annotator through the gateway, on the transport LABLD_TEST_TRANSPORT names: every
// endpoint on the seed fixtures, the original's download names for all 8 return types, the
// upload's stable URL, /info and /api/docs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import iconv from 'iconv-lite';
import { FORMATS, parse, RETURN_TYPES, type ReturnType } from '../../lib/rdf/index.ts';
import { assertIsomorphic, doublesByValue } from '../support/rdf.ts';
import { caseUrl, expectedDescriptor, GOLDEN_CASES, type Json } from './goldens.ts';
import {
  get,
  postFile,
  postJson,
  startAnnotator,
  startSeedServer,
  type Answer,
  type SeedServer,
  type Labld,
} from './e2e-support.ts';
import { ENCODINGS } from '../../lib/annotator/index.ts';
import { csvtocsvw, encodedSample, EXAMPLES, withoutProvenance } from './support.ts';

const PROV_TIME = 'http://www.w3.org/ns/prov#generatedAtTime';
const CSVW_ROW = 'http://www.w3.org/ns/csvw#Row';

/** The original's download extension per return type (research §1.11). */
const EXTENSION: Record<ReturnType, string> = {
  'json-ld': 'json',
  turtle: 'ttl',
  longturtle: 'ttl',
  xml: 'xml',
  n3: 'n3',
  nt: 'nt',
  trig: 'trig',
  hext: 'hext',
};

let labld: Labld;
let files: SeedServer;

before(async () => {
  files = await startSeedServer();
  labld = await startAnnotator();
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

const api = (path: string) => `${labld.annotator}${path}`;

function ok(reply: Answer, what: string): void {
  assert.equal(reply.status, 200, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
}

/** The graph of a download, without the per-request conversion time. */
async function graphOf(reply: Answer, returnType: ReturnType): Promise<RDF.Quad[]> {
  const quads = await parse(reply.text, returnType);
  return doublesByValue(quads.filter((q) => q.predicate.value !== PROV_TIME));
}

describe('annotator over HTTP: /info and /api/docs', () => {
  it('GET /info answers the spec fields with interface version v1.3.5', async () => {
    const reply = await get(api('/info'));
    ok(reply, '/info');
    const info = reply.json() as Record<string, unknown>;
    assert.equal(info['app_name'], 'CSVtoCSVW');
    assert.equal(info['version'], 'v1.3.5');
    assert.equal(typeof info['config_name'], 'string');
    assert.ok((info['config_name'] as string).length > 0);
    assert.equal(info['server'], labld.annotator);
  });

  it('GET /api/docs is the explorer, and the OpenAPI document lists every endpoint', async () => {
    const docs = await get(api('/api/docs'));
    ok(docs, '/api/docs');
    assert.match(docs.contentType, /text\/html/);
    const openapi = await get(api('/api/openapi.json'));
    ok(openapi, '/api/openapi.json');
    const paths = Object.keys((openapi.json() as { paths: Record<string, unknown> }).paths);
    for (const path of ['/api/annotate', '/api/annotate_upload', '/api/rdf', '/info']) {
      assert.ok(
        paths.some((p) => p.endsWith(path)),
        `${path} in ${paths.join(', ')}`,
      );
    }
  });
});

describe('annotator over HTTP: POST /api/annotate gives the original descriptors', () => {
  for (const c of GOLDEN_CASES) {
    it(c.title, async () => {
      const reply = await postJson(api('/api/annotate'), { data_url: caseUrl(c, files.base) });
      ok(reply, c.csv);
      assert.equal(reply.contentType, 'application/ld+json');
      assert.equal(reply.filename, basename(c.golden));
      const descriptor = reply.json() as Json;
      assert.deepEqual(withoutProvenance(descriptor), expectedDescriptor(c, files.base));
      assert.equal(
        (descriptor['prov:wasGeneratedBy'] as Json)['@id'],
        `${labld.annotator}/api/annotate`,
        'the activity is the endpoint',
      );
    });
  }
});

describe('annotator over HTTP: POST /api/annotate_upload', () => {
  for (const c of GOLDEN_CASES) {
    it(`the same descriptor as /api/annotate, but for the CSV URL: ${c.csv}`, async () => {
      const bytes = readFileSync(csvtocsvw(c.csv));
      const fileName = decodeURIComponent(basename(c.url));
      const upload = await postFile(api('/api/annotate_upload'), bytes, fileName);
      ok(upload, `upload ${c.csv}`);
      assert.equal(upload.contentType, 'application/ld+json');
      assert.equal(upload.filename, basename(c.golden));
      const descriptor = upload.json() as Json;

      // The CSV URL is labld's stored-file URL, and GET on it gives the bytes back.
      const stored = descriptor['@id'] as string;
      assert.ok(stored.startsWith(`${labld.annotator}/files/`), stored);
      assert.ok(stored.endsWith(`/${basename(c.url)}`), stored);
      const again = await get(stored);
      ok(again, 'GET stored file');
      assert.ok(again.bytes.equals(bytes), 'the stored file has the uploaded bytes');

      // Everything else is the annotate descriptor of the same bytes.
      const storedDir = stored.slice(0, stored.lastIndexOf('/') + 1);
      const asIfAnnotated = JSON.parse(JSON.stringify(descriptor).replaceAll(storedDir, files.base)) as Json;
      assert.deepEqual(withoutProvenance(asIfAnnotated), expectedDescriptor(c, files.base));
    });
  }

  it('its stored URL works as a data_url: the same descriptor again', async () => {
    const upload = await postFile(
      api('/api/annotate_upload'),
      readFileSync(csvtocsvw('example2.csv')),
      'example2.csv',
    );
    ok(upload, 'upload');
    const uploaded = upload.json() as Json;
    const again = await postJson(api('/api/annotate'), { data_url: uploaded['@id'] });
    ok(again, 'annotate the stored URL');
    assert.deepEqual(withoutProvenance(again.json() as Json), withoutProvenance(uploaded));
  });

  it('a stored file that does not exist is a 404 {detail}', async () => {
    const reply = await get(api(`/files/${'0'.repeat(64)}/x.csv`));
    assert.equal(reply.status, 404);
    assert.equal(typeof (reply.json() as Json)['detail'], 'string');
  });
});

describe('annotator over HTTP: the 8 return types', () => {
  it('/api/annotate: original file names, their content types, one graph in every format', async () => {
    const dataUrl = `${files.base}example5.csv`;
    const replies = new Map<ReturnType, Answer>();
    for (const returnType of RETURN_TYPES) {
      const reply = await postJson(api(`/api/annotate?return_type=${returnType}`), { data_url: dataUrl });
      ok(reply, returnType);
      assert.equal(reply.filename, `example5-metadata.${EXTENSION[returnType]}`, returnType);
      assert.equal(reply.contentType.split(';')[0], FORMATS[returnType].contentType, returnType);
      replies.set(returnType, reply);
    }
    const reference = await graphOf(replies.get('json-ld') as Answer, 'json-ld');
    assert.ok(reference.length > 100);
    for (const [returnType, reply] of replies) {
      await assertIsomorphic(await graphOf(reply, returnType), reference, `${returnType} vs json-ld`);
    }
  });

  it('/api/annotate_upload: the same names and content types', async () => {
    for (const returnType of RETURN_TYPES) {
      const reply = await postFile(
        api(`/api/annotate_upload?return_type=${returnType}`),
        readFileSync(csvtocsvw('example6.csv')),
        'example6.csv',
      );
      ok(reply, returnType);
      assert.equal(reply.filename, `example6-metadata.${EXTENSION[returnType]}`, returnType);
      assert.equal(reply.contentType.split(';')[0], FORMATS[returnType].contentType, returnType);
      assert.ok((await parse(reply.text, returnType)).length > 10, returnType);
    }
  });
});

describe('annotator over HTTP: POST /api/rdf', () => {
  it('gives the original /api/rdf graph of example5 (descriptor and rows)', async () => {
    // The seed descriptor and golden Turtle, moved from the original's host to the test's.
    const move = (text: string) => text.replaceAll(EXAMPLES, files.base);
    const metadataUrl = files.put(
      'example5-metadata.json',
      move(readFileSync(csvtocsvw('example5-metadata.json'), 'utf8')),
      'application/ld+json',
    );
    const reply = await postJson(api('/api/rdf'), { metadata_url: metadataUrl });
    ok(reply, '/api/rdf');
    assert.equal(reply.filename, 'example5.ttl');
    assert.equal(reply.contentType.split(';')[0], 'text/turtle');
    const golden = move(readFileSync(csvtocsvw('example5.ttl'), 'utf8')).replaceAll(
      'http://localhost:5001/api/rdf',
      `${labld.annotator}/api/rdf`,
    );
    await assertIsomorphic(
      await graphOf(reply, 'turtle'),
      doublesByValue((await parse(golden, 'turtle')).filter((q) => q.predicate.value !== PROV_TIME)),
      'example5.ttl',
    );
  });

  it('all 8 return types: original file names, content types, one graph', async () => {
    const metadataUrl = files.put(
      'ex5-metadata.json',
      readFileSync(csvtocsvw('example5-metadata.json'), 'utf8'),
      'application/ld+json',
    );
    const csvUrl = `${files.base}example5.csv`;
    let reference: RDF.Quad[] | undefined;
    for (const returnType of RETURN_TYPES) {
      const reply = await postJson(api(`/api/rdf?return_type=${returnType}`), {
        metadata_url: metadataUrl,
        csv_url: csvUrl,
      });
      ok(reply, returnType);
      assert.equal(reply.filename, `example5.${EXTENSION[returnType]}`, returnType);
      assert.equal(reply.contentType.split(';')[0], FORMATS[returnType].contentType, returnType);
      const graph = await graphOf(reply, returnType);
      reference ??= graph;
      await assertIsomorphic(graph, reference, `${returnType} vs json-ld`);
    }
  });

  it("reads the CSV in the descriptor's encoding (latin-1 text cells, streamed)", async () => {
    const csv =
      'Probe;Werkstoff;Kraft [kN]\n' +
      Array.from({ length: 30 }, (_, i) => `${i};Stahl Größe ${i};${i},5\n`).join('');
    const upload = await postFile(api('/api/annotate_upload'), iconv.encode(csv, 'latin1'), 'latin.csv');
    ok(upload, 'upload');
    const descriptor = upload.json() as { tables: { dialect: Json }[] };
    assert.notEqual(descriptor.tables[0]?.dialect['encoding'], 'utf-8');
    const metadataUrl = files.put('latin-metadata.json', upload.text, 'application/ld+json');
    const reply = await postJson(api('/api/rdf?return_type=nt'), { metadata_url: metadataUrl });
    ok(reply, '/api/rdf');
    const values = (await parse(reply.text, 'nt')).map((q) => q.object.value);
    assert.ok(values.includes('Stahl Größe 7'), 'the text cell decoded with the dialect encoding');
  });

  it('reads an upload by its stored URL (as the mapper and converter will)', async () => {
    const upload = await postFile(
      api('/api/annotate_upload'),
      readFileSync(csvtocsvw('example5.csv')),
      'example5.csv',
    );
    ok(upload, 'upload');
    const metadataUrl = files.put('uploaded-metadata.json', upload.text, 'application/ld+json');
    const reply = await postJson(api('/api/rdf?return_type=nt'), { metadata_url: metadataUrl });
    ok(reply, '/api/rdf');
    assert.equal(reply.filename, 'example5.nt');
    const quads = await parse(reply.text, 'nt');
    const rows = quads.filter((q) => q.object.value === CSVW_ROW);
    assert.equal(rows.length, 11, 'one csvw:Row per data line of example5.csv');
    const stored = (upload.json() as Json)['@id'] as string;
    assert.ok(quads.some((q) => q.object.value === `${stored}/row=1`));
  });
});

describe('annotator over HTTP: the 29 named encodings', () => {
  /** The metadata value and the dialect encoding of a descriptor download. */
  const read = (reply: Answer) => {
    const descriptor = reply.json() as {
      notes: { 'oa:hasBody': { 'oa:value': string }[] }[];
      tables: { dialect: { encoding: string } }[];
    };
    return [descriptor.notes[0]?.['oa:hasBody'][0]?.['oa:value'], descriptor.tables[0]?.dialect.encoding];
  };

  for (const encoding of ENCODINGS.filter((e) => e !== 'auto')) {
    it(`${encoding}: /api/annotate {encoding} and /api/annotate_upload ?encoding=`, async () => {
      const { word, bytes } = encodedSample(encoding);
      const url = files.put(`enc-${encoding}.csv`, bytes);
      const byUrl = await postJson(api('/api/annotate'), { data_url: url, encoding });
      ok(byUrl, encoding);
      assert.deepEqual(read(byUrl), [word, encoding]);
      const upload = await postFile(api(`/api/annotate_upload?encoding=${encoding}`), bytes, 'enc.csv');
      ok(upload, encoding);
      assert.deepEqual(read(upload), [word, encoding]);
    });
  }
});

describe('annotator over HTTP: auto detection that has to read the file again', () => {
  it('UTF-8 text for 64 KB, then latin-1 bytes: the data_url is fetched again, the upload re-read', async () => {
    const head = `Temp [°C];B\n${'1;2\n'.repeat(40_000)}`;
    const bytes = Buffer.concat([Buffer.from(head, 'utf8'), iconv.encode('\nTräger;ß;1\n', 'latin1')]);
    const lastNote = (reply: Answer) => {
      ok(reply, 'annotate');
      const descriptor = reply.json() as { notes: { label: string }[]; tables: { dialect: Json }[] };
      return [descriptor.notes.at(-1)?.label, descriptor.tables[0]?.dialect['encoding'] !== 'utf-8'];
    };
    const url = files.put('utf8-then-latin1.csv', bytes);
    assert.deepEqual(lastNote(await postJson(api('/api/annotate'), { data_url: url })), ['Träger', true]);
    const upload = await postFile(api('/api/annotate_upload'), bytes, 'utf8-then-latin1.csv');
    assert.deepEqual(lastNote(upload), ['Träger', true]);
  });
});
