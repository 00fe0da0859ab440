// The catalogue gateway over HTTP on a whole labld with a seeded catalogue: security headers,
// hashed long-cached assets, and bad parameters answered {"detail"} with a 4xx naming them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { catalogueGateway } from '../../gateways/catalogue.ts';
import { start } from '../gateways/kit/support.ts';
import { startSeededLabld, type SeededLabld } from './support/seed.ts';

let catalogue: SeededLabld;

describe('catalogue gateway', () => {
  before(async () => {
    catalogue = await startSeededLabld({ users: { ada: 'ada has a long password' } });
  });
  after(() => catalogue.stop());

  test('pages: HTML with a CSP allowing our own files only, no inline code', async () => {
    for (const path of [
      '/',
      '/dataset?q=plate',
      '/dataset/plate-reader-01',
      `/dataset/plate-reader-01/resource/${catalogue.runId}?sort=temperature`,
      '/group/mappings',
      '/user/login',
      '/user/tokens',
      '/dataset/plate-reader-01/upload',
    ]) {
      // As ada (her API token is a viewer of the pages): the token and upload pages are hers.
      const headers = path === '/user/login' ? {} : { authorization: catalogue.tokens['ada']! };
      const response = await fetch(`${catalogue.url}${path}`, { headers });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      const csp = response.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self';/);
      assert.match(csp, /default-src 'none'/);
      assert.ok(!csp.includes('unsafe'), csp);
      const html = await response.text();
      assert.ok(!/<script(?![^>]*\ssrc=)/.test(html), `${path}: inline script`);
      assert.ok(
        !/https?:\/\//.test(html.replace(/<p class="lead">[\s\S]*?<\/p>/g, '')),
        `${path}: a URL to another site`,
      );
    }
  });

  test('assets: served under their content hash, cached for a year; another hash is 404', async () => {
    const html = await (await fetch(`${catalogue.url}/dataset`)).text();
    const href = /<link rel="stylesheet" href="(\/assets\/catalogue\.([0-9a-f]{10})\.css)">/.exec(html)!;
    const bytes = await readFile(new URL('../../gateways/catalogue/assets/catalogue.css', import.meta.url));
    assert.equal(href[2], createHash('sha256').update(bytes).digest('hex').slice(0, 10));
    const css = await fetch(`${catalogue.url}${href[1]}`);
    assert.equal(css.status, 200);
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(css.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(Buffer.from(await css.arrayBuffer()), bytes);
    const stale = await fetch(`${catalogue.url}/assets/catalogue.0000000000.css`);
    assert.equal(stale.status, 404);
    assert.equal(typeof ((await stale.json()) as { detail: unknown }).detail, 'string');
  });

  const RUN = '/dataset/plate-reader-01/resource/{run}';
  // `named`: the parameter, or the column or name that is wrong, as the detail says it.
  const MISSING = '00000000-0000-4000-8000-000000000404';
  for (const [path, status, named] of [
    [`${RUN}?sort=nope`, 422, 'sort'],
    [`${RUN}?f.nope=1`, 422, '"nope"'],
    [`${RUN}?page=-1`, 422, 'page'],
    ['/dataset?page=x', 422, 'page'],
    ['/dataset/no-such-dataset', 404, 'no-such-dataset'],
    [`/dataset/plate-reader-01/resource/${MISSING}`, 404, MISSING],
    ['/group/other', 404, 'other'],
  ] as const) {
    test(`${path} → ${status} naming ${named}`, async () => {
      const response = await fetch(`${catalogue.url}${path.replace('{run}', catalogue.runId)}`);
      assert.equal(response.status, status);
      const body = (await response.json()) as { detail: string };
      assert.ok(body.detail.includes(named), body.detail);
    });
  }

  test('a browser asking for a page that cannot be answered gets an HTML page with the reason and the status', async () => {
    const response = await fetch(`${catalogue.url}/dataset/%3Cb%3Enope`, {
      headers: { accept: 'text/html,*/*;q=0.8' },
    });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(response.headers.get('content-security-policy'));
    const html = await response.text();
    assert.ok(html.includes('<h1>Not found</h1>'));
    assert.match(html, /<p class="error" role="alert">dataset not found: &lt;b&gt;nope<\/p>/);
    const invalid = await fetch(`${catalogue.url}/dataset?page=0`, { headers: { accept: 'text/html' } });
    assert.equal(invalid.status, 422);
    assert.match(await invalid.text(), /page: must be a whole number from 1/);
  });

  test('without the runtime and accounts the catalogue is the placeholder linking the services', async () => {
    const server = await start({ gateways: [catalogueGateway()] });
    try {
      const html = await (await fetch(`${server.url}/`)).text();
      assert.ok(html.includes('/annotator/api/docs'));
      assert.equal((await fetch(`${server.url}/dataset`)).status, 404);
    } finally {
      await server.close();
    }
  });
});
