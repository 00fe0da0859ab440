// Users' files as the catalogue serves them (issue 25, findings 8 and 9): a mimetype is a media
// type or refused naming `mimetype`; a bad one already stored is served as bytes, not a 500;
// every download is an attachment with nosniff and a sandbox CSP, so that an editor's script
// never runs from labld's origin; long and odd file names upload and download under their name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from '../support/fc.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, person, type Person } from './actions/support.ts';

let labld: Running & { dataDir: string };
let alice: Person;

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice');
  await store.close();
  const made = await api(labld.url, 'package_create', {
    body: { name: 'files' },
    headers: { authorization: alice.token },
  });
  assert.equal(made.status, 200);
});
after(() => labld?.stop());

/** An upload to the dataset `files`; the resource as resource_create answers it. */
async function upload(bytes: string, name: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.set('package_id', 'files');
  form.set('upload', new Blob([bytes], { type }), name);
  const made = await api(labld.url, 'resource_create', { form, headers: { authorization: alice.token } });
  assert.equal(made.status, 200, JSON.stringify(made.body.error));
  return made.body.result as { id: string; url: string; name: string };
}

/** The name a Content-Disposition gives in `filename*` (RFC 6266: the one to use). */
function nameIn(disposition: string): string {
  const match = /filename\*=UTF-8''([^;\s]+)/.exec(disposition);
  assert.ok(match, disposition);
  return decodeURIComponent(match[1] as string);
}

function assertUserFileHeaders(response: Response): void {
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.match(response.headers.get('content-security-policy') ?? '', /^sandbox\b.*default-src 'none'/);
  assert.match(response.headers.get('content-disposition') ?? '', /^attachment;/);
}

describe('the mimetype of a resource', () => {
  test('resource_patch with CR LF in mimetype is refused naming mimetype; the download still works', async () => {
    const res = await upload('a,b\n1,2\n', 'data.bin');
    const patched = await api(labld.url, 'resource_patch', {
      body: { id: res.id, mimetype: 'text/html\r\nX-Injected: 1' },
      headers: { authorization: alice.token },
    });
    assert.equal(patched.status, 409);
    assert.ok(patched.body.error.mimetype, JSON.stringify(patched.body.error));
    const download = await fetch(res.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('x-injected'), null);
  });

  test('a media type with parameters is taken', async () => {
    const res = await upload('x', 'notes.bin');
    const patched = await api(labld.url, 'resource_patch', {
      body: { id: res.id, mimetype: 'text/plain; charset=utf-8' },
      headers: { authorization: alice.token },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body.error));
    assert.equal(patched.body.result.mimetype, 'text/plain; charset=utf-8');
  });

  test('a bad mimetype already stored (before the check) is served as bytes, not a 500', async () => {
    const res = await upload('a,b\n1,2\n', 'old.bin');
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    try {
      await store.updateResource(res.id, { mimetype: 'text/html\r\nX-Injected: 1' });
    } finally {
      await store.close();
    }
    const download = await fetch(res.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/octet-stream');
    assert.equal(download.headers.get('x-injected'), null);
    assert.equal(await download.text(), 'a,b\n1,2\n');
  });
});

describe('active content is downloaded, never run from labld', () => {
  for (const [name, type] of [
    ['x.js', 'application/javascript'],
    ['page.html', 'text/html'],
    ['image.svg', 'image/svg+xml'],
    ['feed.xml', 'application/xml'],
    ['page.xhtml', 'application/xhtml+xml'],
    ['data.csv', 'text/csv'],
  ] as const) {
    test(`${name} as ${type}: attachment, nosniff, sandbox CSP`, async () => {
      const res = await upload('alert(document.cookie)', name, type);
      const download = await fetch(res.url);
      assert.equal(download.status, 200);
      assertUserFileHeaders(download);
      assert.equal(nameIn(download.headers.get('content-disposition') ?? ''), name);
    });
  }
});

describe('long and odd file names', () => {
  test('a name of 300 characters is cut to 255 bytes, extension kept; its url answers', async () => {
    const long = `${'m'.repeat(296)}.bin`;
    const res = await upload('x', long);
    assert.equal(res.name, `${'m'.repeat(251)}.bin`);
    const download = await fetch(res.url);
    assert.equal(download.status, 200, await download.clone().text());
    assert.equal(nameIn(download.headers.get('content-disposition') ?? ''), res.name);
  });

  test('a long name of multi-byte characters is cut on a character, never half of one', async () => {
    const res = await upload('x', `${'é'.repeat(200)}.bin`);
    assert.equal(res.name, `${'é'.repeat(125)}.bin`);
    assert.equal((await fetch(res.url)).status, 200);
  });

  test('random names (unicode, spaces, quotes, %, #, ?, ..) come back under their own name', async () => {
    // A space, and the characters that URLs, headers and paths treat specially.
    const odd = fc.constantFrom(' ', ...`" ' % # ? .. %20 ; , ( * é 漢 😀`.split(' '));
    const piece = fc.oneof(odd, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }));
    const names = fc
      .array(piece, { minLength: 1, maxLength: 12 })
      .map((parts) => `${parts.join('')}.bin`)
      // What the upload itself takes away: path separators and control characters.
      .filter((name) => !/[/\\\p{Cc}]/u.test(name) && name.trim() === name);
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const res = await upload(name, name);
        assert.equal(res.name, name);
        const download = await fetch(res.url);
        assert.equal(download.status, 200, name);
        assert.equal(await download.text(), name);
        assertUserFileHeaders(download);
        assert.equal(nameIn(download.headers.get('content-disposition') ?? ''), name);
      }),
      { numRuns: 40 },
    );
  });
});
