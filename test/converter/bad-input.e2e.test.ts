// Bad input to the converter through HTTP: every case is a 4xx whose detail names the field
// and the problem; never a 500, and the process keeps answering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { MAX_METADATA_BYTES } from '../../lib/converter/rocrate.ts';
import { useConverter } from './context.ts';
import { CRATE_MAPPING, writeZip } from './crate.ts';

const ctx = useConverter();

async function expectError(path: string, params: Record<string, string>, status: number, detail: RegExp) {
  const res = await fetch(`${ctx.api}${path}?${new URLSearchParams(params)}`, { method: 'POST' });
  const body = (await res.json()) as { detail?: string };
  assert.equal(res.status, status, `${path} ${JSON.stringify(params)}: ${body.detail}`);
  assert.match(body.detail ?? '', detail);
}

const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  ...Array.from({ length: 9 }, (_, i) => {
    const prev = String.fromCharCode(97 + i);
    const next = String.fromCharCode(98 + i);
    return `${next}: &${next} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
  }),
  'mappings: {m: {sources: [[x.json~jsonpath, $], *j], s: x}}',
].join('\n');

const XXE = `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/a"><ex:p>&xxe;</ex:p></rdf:Description>
</rdf:RDF>`;

test('a mapping that is not YAML, or YAML that is not YARRRML: 422 naming mapping_url', async () => {
  ctx.files.put('/not-yaml.yaml', 'mappings: {a: [1, 2\n  b: : :');
  ctx.files.put('/a-list.yaml', '- just\n- a list\n');
  ctx.files.put('/no-rules.yaml', 'prefixes: {ex: "http://example.org/"}\n');
  for (const path of ['/createrdf', '/checkmapping', '/yarrrmltorml', '/normalizeyarrrml']) {
    await expectError(
      path,
      { mapping_url: ctx.files.url('/not-yaml.yaml') },
      422,
      /mapping_url.*(YAML|yaml)/,
    );
    await expectError(path, { mapping_url: ctx.files.url('/a-list.yaml') }, 422, /mapping_url.*YAML mapping/);
    await expectError(
      path,
      { mapping_url: ctx.files.url('/no-rules.yaml') },
      422,
      /mapping_url.*no "mappings"/,
    );
  }
});

test('YARRRML the translator refuses: 422 naming mapping_url', async () => {
  ctx.files.put(
    '/bad-yarrrml.yaml',
    'mappings:\n  m:\n    sources: [nowhere]\n    s: http://x.org/$(id)\n    po: [[a, http://x.org/T]]\n',
  );
  await expectError(
    '/createrdf',
    { mapping_url: ctx.files.url('/bad-yarrrml.yaml'), data_url: ctx.files.url('/batch/Batch.json') },
    422,
    /mapping_url/,
  );
  await expectError('/yarrrmltorml', { mapping_url: ctx.files.url('/bad-yarrrml.yaml') }, 422, /mapping_url/);
});

test('the unsupported iterator $..[*]: createrdf 422 explaining why (checkmapping answers 0/N)', async () => {
  await expectError(
    '/createrdf',
    { mapping_url: ctx.files.url('/test_unsupported_iterator.yaml') },
    422,
    /\$\.\.\[\*\] is not supported/,
  );
});

test('unreachable URLs: a 4xx naming the field', async () => {
  await expectError('/createrdf', { mapping_url: ctx.files.url('/missing.yaml') }, 422, /mapping_url.*404/);
  await expectError(
    '/createrdf',
    { mapping_url: ctx.files.url('/csvw-template-map.yaml'), data_url: ctx.files.url('/missing.json') },
    422,
    /data_url/,
  );
  await expectError('/checkmapping', { mapping_url: 'http://10.255.255.1/map.yaml' }, 403, /mapping_url/);
  await expectError('/checkmapping', { mapping_url: 'file:///etc/passwd' }, 400, /mapping_url.*scheme/);
  ctx.files.put(
    '/no-template.yaml',
    ctx.files
      .get('/csvw-template-map.yaml')!
      .body.toString('utf8')
      .replace(ctx.files.url('/methods/'), ctx.files.url('/gone/')),
  );
  await expectError(
    '/createrdf',
    { mapping_url: ctx.files.url('/no-template.yaml') },
    422,
    /mapping_url: could not load the template graph/,
  );
  await expectError('/createrdf', {}, 422, /mapping_url: is required/);
});

test('a YAML alias bomb is refused before it is expanded', async () => {
  ctx.files.put('/bomb.yaml', ALIAS_BOMB);
  for (const path of ['/createrdf', '/checkmapping', '/yarrrmltorml', '/test']) {
    const res = await fetch(
      `${ctx.api}${path}?mapping_url=${encodeURIComponent(ctx.files.url('/bomb.yaml'))}`,
      {
        method: 'POST',
      },
    );
    const text = await res.text();
    if (path === '/test') {
      assert.equal(res.status, 200);
      assert.match(text, /aliases/);
    } else {
      assert.equal(res.status, 422, text);
      assert.match(text, /mapping_url.*aliases/);
    }
  }
});

test('RDF/XML data with an external entity: refused, the file never read', async () => {
  ctx.files.put('/xxe.rdf', XXE);
  const res = await fetch(
    `${ctx.api}/checkmapping?${new URLSearchParams({ mapping_url: ctx.files.url('/csvw-template-map.yaml'), data_url: ctx.files.url('/xxe.rdf') })}`,
    { method: 'POST' },
  );
  const text = await res.text();
  assert.ok(res.status >= 400 && res.status < 500, text);
  assert.doesNotMatch(text, /root:/);
  assert.match(text, /data_url/);
});

test('createrdfupload without a file or JSON form, and non-UTF-8 uploads: 4xx', async () => {
  const empty = await fetch(`${ctx.api}/createrdfupload`, { method: 'POST' });
  assert.equal(empty.status, 422);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([0xff, 0xfe, 0x00, 0xd8])]), 'x.json');
  const res = await fetch(
    `${ctx.api}/createrdfupload?mapping_url=${encodeURIComponent(ctx.files.url('/csvw-template-map.yaml'))}`,
    {
      method: 'POST',
      body: form,
    },
  );
  assert.equal(res.status, 422);
  assert.match(((await res.json()) as { detail: string }).detail, /file/);
});

test('after all that, the service still answers', async () => {
  const res = await fetch(`${ctx.labld.url}/converter/info`);
  assert.equal(res.status, 200);
});

test('rdfvalidator: unreachable or unparsable graphs and unusable shapes are 4xx naming the field', async () => {
  ctx.files.put('/ok.ttl', '<http://example.org/a> a <http://example.org/T> .');
  ctx.files.put('/broken.ttl', '<http://example.org/a> a .');
  ctx.files.put('/xxe.rdf', XXE);
  const shapes = ctx.files.url('/ok.ttl');
  await expectError(
    '/rdfvalidator',
    { shapes_url: shapes, rdf_url: ctx.files.url('/missing.ttl') },
    422,
    /rdf_url/,
  );
  await expectError(
    '/rdfvalidator',
    { shapes_url: ctx.files.url('/broken.ttl'), rdf_url: shapes },
    422,
    /shapes_url/,
  );
  await expectError(
    '/rdfvalidator',
    { shapes_url: shapes, rdf_url: ctx.files.url('/xxe.rdf') },
    422,
    /rdf_url/,
  );
  await expectError('/rdfvalidator', { shapes_url: shapes }, 422, /rdf_url: is required/);
});

test('a zip bomb uploaded as an RO-Crate: 413 naming file, the service unharmed', async () => {
  ctx.files.put('/crate-map.yaml', CRATE_MAPPING);
  const bomb = await writeZip({ 'ro-crate-metadata.json': Buffer.alloc(MAX_METADATA_BYTES + 1) });
  const form = new FormData();
  form.append('file', new Blob([readFileSync(bomb)]), 'bomb.zip');
  const res = await fetch(
    `${ctx.api}/createrdfupload?mapping_url=${encodeURIComponent(ctx.files.url('/crate-map.yaml'))}`,
    {
      method: 'POST',
      body: form,
    },
  );
  assert.equal(res.status, 413);
  assert.match(
    ((await res.json()) as { detail: string }).detail,
    /^file: ro-crate-metadata\.json inflates to/,
  );
  assert.equal((await fetch(`${ctx.labld.url}/converter/info`)).status, 200);
});
