// A second client is served while a slow request runs (either transport). The slow request is
// an /annotator/api/annotate of a CSV whose server trickles it a line at a time, so it keeps
// a worker busy until the fetch's time limit; meanwhile 12 ordinary annotate requests must all
// succeed quickly. Each request's key is its random request id, placed by murmur2 on one of
// the request topic's 6 partitions: the 12 all miss the slow request's partition with
// probability (5/6)^12 ≈ 11 %, so in about 89 % of runs at least one shares it — and, were
// a partition's requests handled one after the other, would wait for the slow one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import { serve, startFileServer, type FileServer, type TestServer } from '../support/file-server.ts';
import { startLabld, testTransport, type Running } from '../support/labld.ts';
import { allowLoopback } from '../support/env.ts';

const ORDINARY = 12;
/** Far below the fetch limit (LABLD_FETCH_TIMEOUT_MS, 30 s) that ends the slow request. */
const QUICK_MS = 10_000;

describe(`a second client is served while a slow request runs (${testTransport()})`, () => {
  let labld: Running;
  let files: FileServer;
  let trickle: TestServer;
  const trickling = new Set<NodeJS.Timeout>();
  const slowArrived = Promise.withResolvers<void>();
  let restoreEnv: (() => void) | undefined;

  before(async () => {
    restoreEnv = allowLoopback();
    files = await startFileServer();
    // A CSV without end: its header, then one row every 200 ms until the test cuts it.
    trickle = await serve((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('time,force\n');
      let row = 0;
      const timer = setInterval(() => res.write(`${row++},${row}\n`), 200);
      trickling.add(timer);
      res.on('close', () => clearInterval(timer));
      slowArrived.resolve();
    });
    labld = await startLabld();
  });
  after(async () => {
    for (const timer of trickling) clearInterval(timer);
    await labld?.stop();
    await trickle?.close();
    await files?.stop();
    restoreEnv?.();
  });

  const annotate = async (dataUrl: string) => {
    const started = performance.now();
    const response = await fetch(`${labld.url}/annotator/api/annotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data_url: dataUrl }),
    });
    const body = await response.text();
    return { status: response.status, body, ms: performance.now() - started };
  };

  it(`answers ${ORDINARY} ordinary annotate requests quickly while a trickled CSV is being read`, async (t) => {
    let slowDone = false;
    const slow = annotate(`${trickle.origin}/endless.csv`).finally(() => {
      slowDone = true;
    });
    await slowArrived.promise; // a worker is reading the endless CSV now

    const ordinary = await Promise.all(
      Array.from({ length: ORDINARY }, (_, i) =>
        annotate(files.put(`/ordinary-${i}.csv`, `time;force\n0.5;${i}.25\n1.0;13.5\n`, 'text/csv')),
      ),
    );
    t.diagnostic(`ordinary requests took ${ordinary.map((o) => o.ms.toFixed(0)).join(', ')} ms`);
    assert.equal(slowDone, false, 'the slow request still runs');
    ordinary.forEach((answer, i) => {
      assert.equal(answer.status, 200, answer.body);
      const descriptor = JSON.parse(answer.body) as { tables: { url: string }[] };
      assert.match(descriptor.tables[0]!.url, new RegExp(`ordinary-${i}\\.csv$`));
      assert.ok(answer.ms < QUICK_MS, `request ${i} took ${answer.ms.toFixed(0)} ms`);
    });

    // Cut the endless CSV: the slow request ends with a refusal in words, not a 500.
    await trickle.close();
    const cut = await slow;
    assert.ok([422, 504].includes(cut.status), `${cut.status}: ${cut.body}`);
    assert.match((JSON.parse(cut.body) as { detail: string }).detail, /data_url/);
  });
});
