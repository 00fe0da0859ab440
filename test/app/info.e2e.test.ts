// End-to-end over HTTP on the transport LABLD_TEST_TRANSPORT names (embedded in `npm test`,
// Kafka in `.ci/run`): each service's /info travels gateway → request topic → consumer →
// reply topic, and one annotator upload travels with its file by blob key.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLabld, testTransport, type Running } from '../support/labld.ts';
import { SERVICES, services } from '../../lib/services.ts';

describe(`labld services on the ${testTransport()} transport`, () => {
  let labld: Running;
  before(async () => {
    labld = await startLabld();
  });
  after(() => labld?.stop());

  test('GET /<service>/info answers for the four services, each with its own version', async () => {
    for (const service of SERVICES) {
      const response = await fetch(`${labld.url}/${service}/info`);
      assert.equal(response.status, 200, service);
      const info = (await response.json()) as Record<string, string>;
      assert.equal(info.version, services[service].version, service);
    }
  });

  test('POST /annotator/api/annotate_upload describes the uploaded CSV', async () => {
    const form = new FormData();
    const csv = 'time;force\n0.5;12.25\n1.0;13.5\n';
    form.set('file', new Blob([csv], { type: 'text/csv' }), 'pull-test.csv');
    const response = await fetch(`${labld.url}/annotator/api/annotate_upload`, {
      method: 'POST',
      body: form,
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.match(response.headers.get('content-type')!, /application\/ld\+json/);
    const descriptor = (await response.json()) as {
      tables: {
        url: string;
        dialect: { delimiter: string };
        tableSchema: { columns: { titles?: unknown }[] };
      }[];
    };
    const [table] = descriptor.tables;
    assert.equal(table!.dialect.delimiter, ';');
    const titles = JSON.stringify(table!.tableSchema.columns.map((c) => c.titles));
    assert.ok(titles.includes('time') && titles.includes('force'), `columns: ${titles}`);
    // The descriptor names the CSV by a URL that labld serves: the consumer stored nothing the
    // gateway cannot reach (on Kafka they share only the blob store).
    const path = new URL(table!.url).pathname;
    assert.match(path, /^\/annotator\/files\/[A-Za-z0-9_-]{22}\/pull-test\.csv$/);
    const stored = await fetch(`${labld.url}${path}`);
    assert.equal(stored.status, 200);
    assert.equal(await stored.text(), csv);
  });
});
