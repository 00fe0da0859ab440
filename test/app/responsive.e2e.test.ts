// Work off the event loop, end to end (either transport): while a CPU-heavy request runs — a
// deeply nested RDF/XML document for /mapper/api/types, which once froze the whole process
// for minutes — /healthz answers within 100 ms and a second client's ordinary request succeeds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { startLabld, testTransport, type Running } from '../support/labld.ts';
import { healthProblems } from '../support/responsiveness.ts';
import { allowLoopback } from '../support/env.ts';

const DEPTH = 7_000;

/** `depth` rdf:Description elements, each the object of the one around it. */
function nestedRdfXml(depth: number): string {
  const open: string[] = [];
  for (let i = 0; i < depth; i += 1)
    open.push(`<rdf:Description rdf:about="http://example.org/n${i}"><ex:p>`);
  const close = '</ex:p></rdf:Description>'.repeat(depth);
  return (
    '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
    `xmlns:ex="http://example.org/">${open.join('')}<rdf:Description rdf:about="http://example.org/leaf"/>${close}</rdf:RDF>\n`
  );
}

describe(`labld stays responsive during a heavy request (${testTransport()})`, () => {
  let labld: Running;
  let files: FileServer;
  let restoreEnv: (() => void) | undefined;

  before(async () => {
    restoreEnv = allowLoopback();
    files = await startFileServer();
    labld = await startLabld();
  });
  after(async () => {
    await labld?.stop();
    await files?.stop();
    restoreEnv?.();
  });

  it('answers /healthz within 100 ms (median) and an ordinary request while deep RDF/XML is parsed', async (t) => {
    const deep = files.put('/deep.rdf', nestedRdfXml(DEPTH), 'application/rdf+xml');
    const small = files.put(
      '/small.ttl',
      '@prefix ex: <http://example.org/> .\nex:a a ex:Specimen .\n',
      'text/turtle',
    );
    let done = false;
    const heavy = fetch(`${labld.url}/mapper/api/types?url=${encodeURIComponent(deep)}`).then(
      async (response) => {
        done = true;
        return { status: response.status, body: await response.text() };
      },
    );
    await sleep(200); // the heavy request is on its way to a worker
    // The ordinary request runs in the other worker, whichever partition its key put it on
    // (requests of one partition run side by side).
    const sent = performance.now();
    let ordinaryMs = 0;
    const ordinary = fetch(`${labld.url}/mapper/api/types?url=${encodeURIComponent(small)}`).then(
      async (response) => {
        const body = (await response.json()) as unknown;
        ordinaryMs = performance.now() - sent;
        return { status: response.status, body };
      },
    );
    const latencies: number[] = [];
    // At least ten rounds, even if a nesting limit refused the document at once: the median of
    // one or two probes is the machine's noise, not labld's.
    do {
      const started = performance.now();
      const health = await fetch(`${labld.url}/healthz`);
      await health.arrayBuffer();
      latencies.push(performance.now() - started);
      assert.equal(health.status, 200);
      await sleep(50);
    } while ((!done || latencies.length < 10) && latencies.length < 400);
    const answer = await heavy;
    await ordinary;
    t.diagnostic(
      `heavy request: ${answer.status}; ${latencies.length} /healthz probes meanwhile; ` +
        `the ordinary request took ${ordinaryMs.toFixed(0)} ms`,
    );
    // A complete answer or a refusal in words (a nesting limit), never a crash or a 500.
    assert.ok(answer.status === 200 || (answer.status >= 400 && answer.status < 500), answer.body);
    assert.deepEqual(
      healthProblems(latencies),
      [],
      `/healthz latencies ${latencies.map((l) => l.toFixed(0)).join(', ')} ms`,
    );
    assert.deepEqual(await ordinary, { status: 200, body: ['http://example.org/Specimen'] });
  });

  it('reports its workers in /readyz and /metrics', async () => {
    const ready = await fetch(`${labld.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { checks: Record<string, string> }).checks['workers'], 'ok');
    assert.match(await (await fetch(`${labld.url}/metrics`)).text(), /^labld_worker_queue 0$/m);
  });
});
