// Issue 28: with LABLD_FETCH_ALLOW=localhost (the hint an error gave), the mapper's /api/types
// fetched labld's own /metrics and read a line of it out in its 422. The mapper's operations run
// in worker threads; the guard there must know labld's sockets as the main thread does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLabld, type Running } from '../support/labld.ts';
import { serve, type TestServer } from './helpers.ts';

let labld: Running;
let files: TestServer;
const saved = process.env['LABLD_FETCH_ALLOW'];

before(async () => {
  files = await serve((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (target === null)
      return void res.end('# HELP lab_secret_total a page only the lab may read\nlab_secret_total 7\n');
    res.statusCode = 302;
    res.setHeader('location', target);
    res.end();
  });
  process.env['LABLD_FETCH_ALLOW'] = `localhost,127.0.0.0/8,::1`;
  labld = await startLabld();
});
after(async () => {
  await labld?.stop();
  await files.close();
  if (saved === undefined) delete process.env['LABLD_FETCH_ALLOW'];
  else process.env['LABLD_FETCH_ALLOW'] = saved;
});

async function types(url: string): Promise<{ status: number; detail: string }> {
  const response = await fetch(`${labld.url}/mapper/api/types?url=${encodeURIComponent(url)}`);
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, detail: body.detail ?? JSON.stringify(body) };
}

test('/mapper/api/types never reads labld’s own /metrics, whatever LABLD_FETCH_ALLOW allows', async () => {
  const port = new URL(labld.url).port;
  const own = [
    `http://localhost:${port}/metrics`,
    `http://127.0.0.1:${port}/metrics`,
    `http://2130706433:${port}/metrics`,
    `http://127.0.0.1:${files.port}/?u=${encodeURIComponent(`http://localhost:${port}/metrics`)}`,
  ];
  for (const url of own) {
    const answer = await types(url);
    assert.equal(answer.status, 403, `${url}: ${answer.detail}`);
    // Under BASE_URL the resolver refuses it before any fetch; other forms, the guard.
    assert.match(answer.detail, /is labld itself|it is labld's own address/, url);
    assert.doesNotMatch(answer.detail, /labld_/, url);
  }
});

test('a page that is no RDF is refused without reading it out', async () => {
  const answer = await types(`http://127.0.0.1:${files.port}/status`);
  assert.equal(answer.status, 422, answer.detail);
  assert.match(answer.detail, /^url: could not parse the \w+ document: .* on line 2/);
  assert.doesNotMatch(answer.detail, /lab_secret/);
});
