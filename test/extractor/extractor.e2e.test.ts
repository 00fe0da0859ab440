// The extractor over HTTP on the bus (either transport) against the openBIS test double: every
// record endpoint in every representation, parsed back and checked for its key triples; the
// credentials of §3.2 (Basic logged out after use, Token, Bearer, the ELN cookie; 401, and 307
// for a browser); 404s; q-value negotiation; a file's bytes; bad input.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import fc from '../support/fc.ts';
import { parse } from '../../lib/rdf/index.ts';
import { waitFor } from '../support/wait.ts';
import { startLabld, testTransport, type Running } from '../support/labld.ts';
import { pointLabldAt, startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';

const BASE = 'http://labld.test';
const NS = `${BASE}/extractor/`;
const OBJECT = '20230531140916169-35';
const DATASET = '20240904142300681-40';
const OBIS = 'http://w3id.org/matolab/openbis/';
const SCHEMA = 'http://schema.org/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const BASIC = `Basic ${Buffer.from('admin:changeit').toString('base64')}`;

const has = (quads: RDF.Quad[], s: string, p: string, o: string) =>
  quads.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o);

describe(`extractor end to end (${testTransport()})`, () => {
  let labld: Running;
  let double: OpenbisDouble;
  let token: string;
  let restore = (): void => {};

  before(async () => {
    double = await startOpenbisDouble();
    // Small limits, so that a huge file and a silent openBIS are answered at once.
    restore = pointLabldAt(double, BASE, { LABLD_FETCH_MAX_BYTES: '64mb', LABLD_FETCH_TIMEOUT_MS: '3000' });
    labld = await startLabld();
    const login = await fetch(`${double.origin}/openbis/openbis/rmi-application-server-v3.json`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'login', params: ['admin', 'changeit'] }),
    });
    token = ((await login.json()) as { result: string }).result;
  });
  after(async () => {
    await labld?.stop();
    await double?.close();
    restore();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${labld.url}/extractor${path}`, {
      headers: { authorization: `Token ${token}`, ...headers },
      redirect: 'manual',
    });

  const graph = async (path: string, accept: string, format: 'json-ld' | 'turtle' | 'nt' | 'xml') => {
    const res = await get(path, { accept });
    assert.equal(res.status, 200, `${path} ${accept}: ${res.status}`);
    return parse(await res.text(), format);
  };

  it('serves every record kind in every RDF format with its key triples', async () => {
    const cases: [string, string, string, string][] = [
      [`/object/${OBJECT}`, `${NS}object/${OBJECT}`, RDF_TYPE, `${OBIS}Object`],
      [
        `/dataset/${DATASET}`,
        `${NS}dataset/${DATASET}`,
        'http://www.w3.org/ns/dcat#distribution',
        `${NS}distribution/${DATASET}/original/markdown_demo.md`,
      ],
      [
        `/distribution/${DATASET}/original/markdown_demo.md`,
        `${NS}distribution/${DATASET}/original/markdown_demo.md`,
        RDF_TYPE,
        'http://www.w3.org/ns/dcat#Distribution',
      ],
      [
        '/collection/20230531140903847-26',
        `${NS}collection/20230531140903847-26`,
        `${SCHEMA}hasPart`,
        `${NS}object/${OBJECT}`,
      ],
      [
        '/project/20230531140903039-23',
        `${NS}project/20230531140903039-23`,
        `${SCHEMA}isPartOf`,
        `${NS}space/EMODUL`,
      ],
      ['/space/EMODUL', `${NS}space/EMODUL`, RDF_TYPE, `${OBIS}Space`],
      ['/instance/', `${NS}instance/`, `${SCHEMA}hasPart`, `${NS}space/EMODUL`],
      ['/user/admin', `${NS}user/admin`, 'http://xmlns.com/foaf/0.1/family_name', 'Mustermann'],
      [
        '/class/EMODUL_INGREDIENT',
        `${NS}class/EMODUL_INGREDIENT`,
        'http://www.w3.org/2000/01/rdf-schema#subClassOf',
        `${OBIS}Object`,
      ],
      ['/object_property/NAME', `${NS}object_property/NAME`, `${OBIS}code`, '$NAME'],
      [
        '/search/?query=admixture',
        `${NS}search/?query=admixture`,
        `${SCHEMA}result`,
        `${NS}object/${OBJECT}`,
      ],
    ];
    const formats: [string, 'json-ld' | 'turtle' | 'nt' | 'xml'][] = [
      ['application/ld+json', 'json-ld'],
      ['application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"', 'json-ld'],
      ['text/turtle', 'turtle'],
      ['application/x-turtle', 'turtle'],
      ['application/n-triples', 'nt'],
      ['application/rdf+xml', 'xml'],
    ];
    for (const [path, s, p, o] of cases) {
      for (const [accept, format] of formats) {
        const quads = await graph(path, accept, format);
        assert.ok(has(quads, s, p, o), `${path} as ${accept}: ${s} ${p} ${o}`);
      }
    }
  });

  it('finds objects, collections and projects by identifier with plain slashes, as the README shows', async () => {
    for (const [path, subject] of [
      ['/object/EMODUL/LEBEDIGITAL/EMODUL_ING9', `${NS}object/${OBJECT}`],
      ['/object/emodul/lebedigital/LEBEDIGITAL_INGREDIENT_COLLECTION/EMODUL_ING9', `${NS}object/${OBJECT}`],
      [
        '/collection/EMODUL/LEBEDIGITAL/LEBEDIGITAL_INGREDIENT_COLLECTION',
        `${NS}collection/20230531140903847-26`,
      ],
      ['/project/EMODUL/LEBEDIGITAL', `${NS}project/20230531140903039-23`],
    ] as const) {
      const quads = await graph(path, 'application/n-triples', 'nt');
      assert.ok(
        quads.some((q) => q.subject.value === subject && q.predicate.value === RDF_TYPE),
        path,
      );
    }
  });

  it('negotiates by q-value and answers the media type chosen', async () => {
    const cases: [string, string][] = [
      ['text/turtle;q=0.5, application/n-triples;q=0.9', 'application/n-triples'],
      ['application/x-turtle', 'application/x-turtle'],
      ['application/ld+json;q=0.1, text/turtle', 'text/turtle'],
      ['*/*', 'application/ld+json'],
      ['application/json', 'application/json'],
    ];
    for (const [accept, type] of cases) {
      const res = await get(`/space/EMODUL`, { accept });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type')?.split(';')[0], type, accept);
      await res.arrayBuffer();
    }
    const raw = (await (await get('/space/EMODUL', { accept: 'application/json' })).json()) as Record<
      string,
      unknown
    >;
    assert.equal(raw['@type'], 'as.dto.space.Space', "application/json is openBIS's own JSON");
    const compacted = (await (await get('/space/EMODUL')).json()) as Record<string, unknown>;
    assert.ok(compacted['@context'], 'JSON-LD by default, compacted with a context');
  });

  it('gives a browser a page with links to the neighbours', async () => {
    const res = await get(`/object/${OBJECT}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const page = await res.text();
    assert.ok(page.includes(`href="${NS}collection/20230531140903847-26"`));
    assert.ok(page.includes('admixture'));
  });

  it('streams a file with ?download=1', async () => {
    const res = await get(`/distribution/${DATASET}/original/markdown_demo.md?download=1`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/markdown');
    assert.equal((await res.arrayBuffer()).byteLength, 4566);
  });

  it("sends a file's first bytes with ?download=1 before the data store has sent it all, and aborts a cut one", async () => {
    const bytes = randomBytes(512 * 1024);
    double.data.addFile(DATASET, 'original/paused.bin', bytes);
    for (const completes of [true, false]) {
      const sessions = double.sessions.size;
      let release: (go: boolean) => void = () => {};
      double.paused.set(`${DATASET}/original/paused.bin`, new Promise((resolve) => (release = resolve)));
      const res = await get(`/distribution/${DATASET}/original/paused.bin?download=1`, {
        authorization: BASIC,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/octet-stream');
      const reader = res.body!.getReader();
      const received: Uint8Array[] = [];
      // The data store holds the file after 64 KiB: what arrives now was streamed, not stored first.
      while (received.reduce((n, c) => n + c.byteLength, 0) < 64 * 1024) {
        const next = await reader.read();
        assert.equal(next.done, false, 'the answer does not end while the file is paused');
        received.push(next.value!);
      }
      assert.equal(double.sessions.size, sessions + 1, 'the Basic session stays open while the file streams');
      release(completes);
      const rest = (async () => {
        for (let next = await reader.read(); !next.done; next = await reader.read())
          received.push(next.value);
      })();
      if (completes) {
        await rest;
        assert.deepEqual(Buffer.concat(received), bytes);
      } else {
        await assert.rejects(rest, /terminated/);
      }
      await waitFor('the Basic session closed once the reply came', () => double.sessions.size === sessions);
    }
    double.paused.clear();
  });

  it('accepts Basic (and logs the session out), Bearer and the ELN cookie', async () => {
    const before = double.sessions.size;
    const basic = await get(`/space/EMODUL`, { authorization: BASIC });
    assert.equal(basic.status, 200);
    await basic.arrayBuffer();
    assert.equal(double.sessions.size, before, 'the session opened for a Basic request is closed again');
    const bearer = await get(`/space/EMODUL`, { authorization: `Bearer ${token}` });
    assert.equal(bearer.status, 200);
    await bearer.arrayBuffer();
    const cookie = await fetch(`${labld.url}/extractor/space/EMODUL`, {
      headers: { cookie: `openbis=${token}` },
    });
    assert.equal(cookie.status, 200);
    await cookie.arrayBuffer();
  });

  it('answers 401 without or with a dead session, and sends a browser to the ELN login (307)', async () => {
    const none = await fetch(`${labld.url}/extractor/space/EMODUL`);
    assert.equal(none.status, 401);
    assert.match(((await none.json()) as { detail: string }).detail, /authorization/);
    const dead = await get('/space/EMODUL', { authorization: 'Token admin-dead' });
    assert.equal(dead.status, 401);
    await dead.arrayBuffer();
    const wrong = await get('/space/EMODUL', {
      authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}`,
    });
    assert.equal(wrong.status, 401, 'a refused login is a 401 (the original: 500)');
    await wrong.arrayBuffer();
    const browser = await fetch(`${labld.url}/extractor/space/EMODUL`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(browser.status, 307);
    assert.equal(browser.headers.get('location'), `${double.origin}/openbis/webapp/eln-lims/`);
    await browser.arrayBuffer();
  });

  it('answers 404 naming the field for unknown ids of every kind', async () => {
    for (const path of [
      '/object/NOPE-1',
      '/dataset/NOPE-1',
      '/collection/NOPE-1',
      '/project/NOPE-1',
      '/space/NOPE',
      '/user/nobody',
      '/class/NOPE',
      '/object_property/NOPE',
      `/distribution/${DATASET}/original/none.md`,
    ]) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.ok(((await res.json()) as { detail: string }).detail.length > 0);
    }
  });

  it('refuses bad input with a 4xx and {"detail"}, and survives openBIS answering garbage or nothing', async () => {
    for (const path of ['original/%2E%2E/%2E%2E/secret', 'original/..%2F..%2Fsecret', '%2Fetc%2Fpasswd']) {
      const dots = await get(`/distribution/${DATASET}/${path}`);
      assert.ok(dots.status === 422 || dots.status === 404, `${path}: ${dots.status}`);
      assert.ok(((await dots.json()) as { detail: string }).detail, path);
    }
    const noQuery = await get('/search/');
    assert.equal(noQuery.status, 422);
    await noQuery.arrayBuffer();
    double.switches.mode = 'garbage';
    const garbage = await get('/space/EMODUL');
    assert.equal(garbage.status, 422);
    assert.match(((await garbage.json()) as { detail: string }).detail, /OPENBIS_URL/);
    double.switches.mode = 'hang';
    const silent = await get('/space/EMODUL');
    assert.equal(silent.status, 504);
    assert.match(((await silent.json()) as { detail: string }).detail, /LABLD_FETCH_TIMEOUT_MS/);
    double.switches.mode = 'normal';
    const health = await fetch(`${labld.url}/extractor/info`);
    assert.equal(health.status, 200, 'the process stays up');
    await health.arrayBuffer();
  });

  it('refuses a file over the fetch limit with a 413 and keeps memory flat', async () => {
    double.addHugeFile(DATASET, 'original/huge.bin', 1024 ** 3);
    const before = process.memoryUsage().rss;
    const res = await get(`/distribution/${DATASET}/original/huge.bin?download=1`);
    assert.equal(res.status, 413);
    assert.match(((await res.json()) as { detail: string }).detail, /LABLD_FETCH_MAX_BYTES|limit/);
    assert.ok(
      process.memoryUsage().rss - before < 100 * 1024 ** 2,
      'the 1 GiB file was not read into memory',
    );
    const record = await graph(`/distribution/${DATASET}/original/huge.bin`, 'text/turtle', 'turtle');
    const size = record.find((q) => q.predicate.value === 'http://www.w3.org/ns/dcat#byteSize');
    assert.equal(size?.object.value, String(1024 ** 3), 'its record still says its size');
  });

  it('never answers 5xx for any id (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('object', 'dataset', 'space', 'user', 'class', 'object_property'),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (kind, id) => {
          const res = await get(`/${kind}/${encodeURIComponent(id)}`);
          await res.arrayBuffer();
          assert.ok(res.status < 500, `${kind}/${id}: ${res.status}`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
