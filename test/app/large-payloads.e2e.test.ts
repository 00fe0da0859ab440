// Requests and replies larger than a bus message may be (Kafka's default is 1 MB) travel by
// claim check: on both transports a large body reaches its consumer and gets its answer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLabld, type Running } from '../support/labld.ts';

let labld: Running;
before(async () => {
  labld = await startLabld();
});
after(() => labld.stop());

test('a 2 MB JSON body reaches the mapper and is answered with a 4xx naming the field', async () => {
  const map: Record<string, string> = {};
  for (let i = 0; i < 60_000; i++) map[`TemplateIndividual${i}`] = `table-1-Column${i}`;
  const body = JSON.stringify({
    data_url: 'http://127.0.0.1:9/data.json',
    template_url: 'http://127.0.0.1:9/t.ttl',
    map,
  });
  assert.ok(body.length > 2_000_000);
  const res = await fetch(`${labld.url}/mapper/api/mapping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { detail: string };
  assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${answer.detail}`);
  assert.match(answer.detail, /data_url|template_url/);
});
