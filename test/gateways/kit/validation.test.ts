// Query strings and path parameters are coerced where the schema says so; defaults are applied.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, postJson, start, type Started } from './support.ts';

describe('gateway kit: validation, coercion, defaults', () => {
  let s: Started;
  let base: string;
  before(async () => {
    s = await start();
    base = `${s.url}/annotator`;
  });
  after(() => s.close());

  test('defaults fill the query and the body (return_type, encoding)', async () => {
    const response = await postJson(`${base}/api/annotate`, { data_url: 'http://example.org/a.csv' });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.deepEqual(body.query, { return_type: 'json-ld' });
    assert.deepEqual(body.body, { data_url: 'http://example.org/a.csv', encoding: 'auto' });
  });

  test('an explicit value wins over the default', async () => {
    const response = await postJson(`${base}/api/annotate?return_type=turtle`, {
      data_url: 'http://example.org/a.csv',
      encoding: 'utf-8',
    });
    const body = await json(response);
    assert.deepEqual(body.query, { return_type: 'turtle' });
    assert.equal((body.body as Record<string, unknown>).encoding, 'utf-8');
  });

  test('integer and boolean query parameters are coerced, a single value becomes an array', async () => {
    const body = await json(await fetch(`${base}/api/items/7?limit=25&flag=true&tags=a`));
    assert.deepEqual(body, { query: { limit: 25, flag: true, tags: ['a'] }, params: { id: 7 } });
    const repeated = await json(await fetch(`${base}/api/items/7?tags=a&tags=b&flag=false`));
    assert.deepEqual(repeated.query, { limit: 10, flag: false, tags: ['a', 'b'] });
  });

  test('JSON body values are not coerced: the number 5 is not a string', async () => {
    const response = await postJson(`${base}/api/annotate`, { data_url: 5 });
    assert.equal(response.status, 422);
  });

  test('an optional body may be absent (parameters in the query instead)', async () => {
    const response = await fetch(`${base}/api/createrdf?mapping_url=http://example.org/m.yml`, {
      method: 'POST',
    });
    assert.deepEqual(await json(response), {
      query: { mapping_url: 'http://example.org/m.yml' },
      body: null,
    });
    const withBody = await postJson(`${base}/api/createrdf`, { mapping_url: 'http://example.org/m.yml' });
    assert.deepEqual(await json(withBody), { query: {}, body: { mapping_url: 'http://example.org/m.yml' } });
  });

  test('a wildcard path parameter spans segments and is decoded', async () => {
    const body = await json(await fetch(`${base}/files/20240101-1/data/raw%20file.csv`));
    assert.deepEqual(body, { perm_id: '20240101-1', path: 'data/raw file.csv' });
  });

  test('a key named __proto__ stays data and pollutes nothing', async () => {
    const response = await postJson(
      `${base}/api/annotate`,
      '{"data_url":"http://example.org/a","__proto__":{"x":1}}',
    );
    assert.equal(response.status, 200);
    const echoed = (await json(response)).body as Record<string, unknown>;
    assert.ok(Object.keys(echoed).includes('__proto__'));
    const query = await json(await fetch(`${base}/api/items/1?__proto__=1&constructor=2`));
    assert.equal((query.query as Record<string, unknown>).limit, 10);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });
});
