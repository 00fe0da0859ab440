// Bad input over HTTP: every endpoint answers a 4xx `{"detail": …}` that names the field, never
// a 500; and a property-based test per endpoint on random bodies and bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from '../support/fc.ts';
import {
  detailOf,
  get,
  postFile,
  postJson,
  startAnnotator,
  startSeedServer,
  type Answer,
  type SeedServer,
  type Labld,
} from './e2e-support.ts';
import { csvtocsvw } from './support.ts';

let labld: Labld;
let files: SeedServer;
/** A loopback port where nothing listens: connections are refused. */
let closedPort: number;
/** A loopback server that promises 1000 bytes, sends a few and hangs up. */
let brokenUrl: string;

before(async () => {
  files = await startSeedServer();
  labld = await startAnnotator();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const broken = createServer((socket) => {
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: 1000\r\n\r\na;b\n1;');
      setTimeout(() => socket.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  brokenUrl = `http://127.0.0.1:${(broken.address() as { port: number }).port}/broken.csv`;
  after(() => new Promise<void>((resolve) => broken.close(() => resolve())));
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

const api = (path: string) => `${labld.annotator}${path}`;

/** A 4xx with a `{"detail": "…"}` that names `field` (and matches `pattern`). */
function clientError(reply: Answer, field: string, pattern?: RegExp): void {
  assert.ok(reply.status >= 400 && reply.status < 500, `status ${reply.status}: ${reply.text.slice(0, 300)}`);
  const detail = detailOf(reply);
  assert.ok(detail.includes(field), `detail names ${field}: ${detail}`);
  if (pattern) assert.match(detail, pattern);
}

/** Any answer but a 5xx; a 4xx carries a string detail. */
function notServerError(reply: Answer): void {
  assert.ok(reply.status < 500, `status ${reply.status}: ${reply.text.slice(0, 300)}`);
  if (reply.status >= 400) detailOf(reply);
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const LONG_LINE = `${'1234567;'.repeat(1_310_720)}\n`;
const HEADER_ONLY = 'Time [s];Force [kN];Elongation [%]\n';
const RAGGED = 'Time;Force;Strain\n0,5;1,5;0,1\n1,0;2,5\n1,5;3,5;0,3\n';

/** The bad files, each answered 4xx naming the field the bytes came in. */
const BAD_FILES: [string, Buffer | string, RegExp][] = [
  ['empty', '', /empty/],
  ['binary', PNG, /binary/],
  ['10 MB single line', LONG_LINE, /longer than/],
  ['header only', HEADER_ONLY, /single line/],
  ['ragged rows', RAGGED, /ragged rows/],
  ['blank lines only', '\n \n\r\n', /no content/],
];

describe('bad input over HTTP: POST /api/annotate', () => {
  for (const [what, bytes, pattern] of BAD_FILES) {
    it(`a CSV that is ${what} → 4xx naming data_url`, async () => {
      const url = files.put(`bad-${what.replaceAll(' ', '-')}.csv`, bytes);
      clientError(await postJson(api('/api/annotate'), { data_url: url }), 'data_url', pattern);
    });
  }

  it('an unreachable data_url (no such host) → 4xx naming data_url', async () => {
    const reply = await postJson(api('/api/annotate'), { data_url: 'http://no-such-host.invalid/x.csv' });
    clientError(reply, 'data_url');
  });

  it('a refused data_url (nothing listens) → 4xx naming data_url', async () => {
    const reply = await postJson(api('/api/annotate'), { data_url: `http://127.0.0.1:${closedPort}/x.csv` });
    clientError(reply, 'data_url');
  });

  it('a data_url that answers 404 → 4xx naming data_url and the upstream status', async () => {
    const reply = await postJson(api('/api/annotate'), { data_url: `${files.base}missing.csv` });
    clientError(reply, 'data_url', /404/);
  });

  it('a data_url whose connection breaks mid-body → 4xx naming data_url', async () => {
    clientError(await postJson(api('/api/annotate'), { data_url: brokenUrl }), 'data_url');
  });

  it('a data_url the fetch policy refuses (private address, file:) → 4xx naming data_url', async () => {
    for (const url of ['http://10.1.2.3/x.csv', 'http://169.254.169.254/latest', 'file:///etc/passwd']) {
      clientError(await postJson(api('/api/annotate'), { data_url: url }), 'data_url');
    }
  });

  it('a wrong encoding name → 422 naming encoding', async () => {
    const url = `${files.base}example6.csv`;
    const reply = await postJson(api('/api/annotate'), { data_url: url, encoding: 'latin-9' });
    assert.equal(reply.status, 422);
    clientError(reply, 'encoding');
  });

  it('a missing or mistyped data_url → 422 naming data_url', async () => {
    for (const body of [
      {},
      { data_url: 42 },
      { data_url: '' },
      { data_url: 'not a url' },
      { encoding: 'auto' },
    ]) {
      const reply = await postJson(api('/api/annotate'), body);
      assert.equal(reply.status, 422, JSON.stringify(body));
      clientError(reply, 'data_url');
    }
  });

  it('a body that is not JSON, or not an object → 4xx with a detail', async () => {
    for (const body of ['{"data_url": ', 'null', '[]', '"x"', 'data_url=x']) {
      const reply = await postJson(api('/api/annotate'), body);
      assert.ok(reply.status >= 400 && reply.status < 500, `${body}: ${reply.status}`);
      detailOf(reply);
    }
  });

  it('an unknown return_type → 422 naming return_type', async () => {
    const reply = await postJson(api('/api/annotate?return_type=pdf'), {
      data_url: `${files.base}example6.csv`,
    });
    assert.equal(reply.status, 422);
    clientError(reply, 'return_type');
  });
});

describe('bad input over HTTP: POST /api/annotate_upload', () => {
  for (const [what, bytes, pattern] of BAD_FILES) {
    it(`a file that is ${what} → 4xx naming file`, async () => {
      clientError(await postFile(api('/api/annotate_upload'), bytes, 'bad.csv'), 'file', pattern);
    });
  }

  it('no file part → 4xx naming file', async () => {
    const form = new FormData();
    form.append('other', 'x');
    const response = await fetch(api('/api/annotate_upload'), { method: 'POST', body: form });
    const body = (await response.json()) as { detail: string };
    assert.ok(response.status >= 400 && response.status < 500, String(response.status));
    assert.match(body.detail, /file/);
  });

  it('a JSON body instead of a form → 4xx with a detail', async () => {
    const reply = await postJson(api('/api/annotate_upload'), { data_url: `${files.base}example6.csv` });
    assert.ok(reply.status >= 400 && reply.status < 500, String(reply.status));
    detailOf(reply);
  });

  it('a wrong encoding name → 422 naming encoding', async () => {
    const reply = await postFile(api('/api/annotate_upload?encoding=utf-9'), 'a;b\n1;2\n', 'x.csv');
    assert.equal(reply.status, 422);
    clientError(reply, 'encoding');
  });
});

describe('bad input over HTTP: POST /api/rdf', () => {
  it('a missing or mistyped metadata_url → 422 naming metadata_url', async () => {
    for (const body of [
      {},
      { metadata_url: 7 },
      { metadata_url: 'nope' },
      { csv_url: `${files.base}x.csv` },
    ]) {
      const reply = await postJson(api('/api/rdf'), body);
      assert.equal(reply.status, 422, JSON.stringify(body));
      clientError(reply, 'metadata_url');
    }
  });

  it('a descriptor that is not JSON-LD, binary, or empty → 4xx naming metadata_url', async () => {
    for (const [name, bytes] of [
      ['not-json-metadata.json', '{"@context": "http://www.w3.org/ns/csvw", "tables": ['],
      ['binary-metadata.json', PNG],
      ['empty-metadata.json', ''],
    ] as const) {
      const url = files.put(name, bytes, 'application/ld+json');
      clientError(await postJson(api('/api/rdf'), { metadata_url: url }), 'metadata_url');
    }
  });

  it('a descriptor without a table → 422 naming metadata_url', async () => {
    const url = files.put('notable-metadata.json', readFileSync(csvtocsvw('example3-metadata.json')));
    const reply = await postJson(api('/api/rdf'), { metadata_url: url });
    assert.equal(reply.status, 422);
    clientError(reply, 'metadata_url', /no table/);
  });

  it('an unreachable metadata_url or csv_url → 4xx naming it', async () => {
    const metadata = files.put('ex5-metadata.json', readFileSync(csvtocsvw('example5-metadata.json')));
    clientError(
      await postJson(api('/api/rdf'), { metadata_url: `http://127.0.0.1:${closedPort}/m.json` }),
      'metadata_url',
    );
    clientError(
      await postJson(api('/api/rdf'), { metadata_url: metadata, csv_url: `${files.base}missing.csv` }),
      'csv_url',
    );
  });

  it('ragged rows in the CSV → 422 naming csv_url', async () => {
    const metadata = files.put('ex5b-metadata.json', readFileSync(csvtocsvw('example5-metadata.json')));
    const csv = readFileSync(csvtocsvw('example5.csv'), 'utf8').replace('\n1,', '\n1,extra,');
    const reply = await postJson(api('/api/rdf'), {
      metadata_url: metadata,
      csv_url: files.put('rag.csv', csv),
    });
    assert.equal(reply.status, 422);
    clientError(reply, 'csv_url');
  });
});

describe('random input over HTTP: never a 500', () => {
  const jsonBody = fc.oneof(
    fc.json(),
    fc.record(
      { data_url: fc.oneof(fc.webUrl(), fc.string(), fc.integer()), encoding: fc.string() },
      { requiredKeys: [] },
    ),
    fc.record(
      { metadata_url: fc.oneof(fc.webUrl(), fc.string()), csv_url: fc.oneof(fc.webUrl(), fc.string()) },
      { requiredKeys: [] },
    ),
  );
  const query = fc.constantFrom(
    '',
    '?return_type=turtle',
    '?return_type=x',
    '?encoding=koi8-r',
    '?encoding=y',
  );

  it('POST /api/annotate with random JSON bodies and random served bytes', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody, query, async (body, q) => {
        notServerError(await postJson(api(`/api/annotate${q}`), body));
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), query, async (bytes, q) => {
        const url = files.put('random.csv', Buffer.from(bytes));
        notServerError(await postJson(api(`/api/annotate${q}`), { data_url: url }));
      }),
      { numRuns: 60 },
    );
  });

  it('POST /api/annotate_upload with random bytes and names', async () => {
    const text = fc
      .array(
        fc.array(fc.oneof(fc.constantFrom('1', '2,5', 'x', '°C', '[mm]', ''), fc.string({ maxLength: 5 })), {
          minLength: 1,
          maxLength: 5,
        }),
        { maxLength: 20 },
      )
      .map((rows) => rows.map((r) => r.join(';')).join('\n'));
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
      text,
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.string({ minLength: 1, maxLength: 20 }), query, async (content, name, q) => {
        notServerError(await postFile(api(`/api/annotate_upload${q}`), content, name));
      }),
      { numRuns: 80 },
    );
  });

  it('POST /api/rdf with random JSON bodies and random served descriptors', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody, query, async (body, q) => {
        notServerError(await postJson(api(`/api/rdf${q}`), body));
      }),
      { numRuns: 60 },
    );
    const csv = files.put('rdf-random.csv', readFileSync(csvtocsvw('example5.csv')));
    const descriptor = fc.oneof(
      fc.json(),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
      // A real descriptor with a value replaced by random JSON somewhere.
      fc.tuple(fc.nat(), fc.json()).map(([at, value]) => {
        const text = readFileSync(csvtocsvw('example5-metadata.json'), 'utf8');
        const cut = text.indexOf(':', at % text.length);
        const end = text.indexOf('\n', cut);
        return cut < 0 || end < 0 ? text : `${text.slice(0, cut + 1)} ${value},${text.slice(end)}`;
      }),
    );
    await fc.assert(
      fc.asyncProperty(descriptor, async (text) => {
        const url = files.put('random-metadata.json', text, 'application/ld+json');
        notServerError(await postJson(api('/api/rdf'), { metadata_url: url, csv_url: csv }));
      }),
      { numRuns: 60 },
    );
  });

  it('GET /files/{key}/{name} with random keys and names', async () => {
    const key = fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string({ maxLength: 70 }));
    await fc.assert(
      fc.asyncProperty(key, fc.string({ maxLength: 30 }), async (k, name) => {
        const reply = await get(api(`/files/${encodeURIComponent(k)}/${encodeURIComponent(name || 'x')}`));
        assert.ok([400, 404, 422].includes(reply.status), `${reply.status} ${reply.text.slice(0, 200)}`);
        detailOf(reply);
      }),
      { numRuns: 80 },
    );
  });
});
