// The work one upload costs (issue 27, "do each thing once"): the seed CSV uploaded through the
// chain to its joined graph, counting bus messages, thread hand-offs, catalogue-store calls,
// schema validations and the parses of the CSV and the descriptor per step
// (lib/process/counters.ts). The bounds are the counts measured after the reductions, so
// doing something twice again fails here.
import './counting-on.ts';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openEmbeddedCatalogue } from '../../lib/catalogue/store/embedded.ts';
import { collectCounts } from '../../lib/process/counters.ts';
import { testTransport } from '../support/labld.ts';
import { sleep } from '../support/wait.ts';
import { useChainE2e } from './e2e.ts';

const e = useChainE2e();

/** Sums the counts named `what` (under every step, or under `step`). */
function sum(counts: Record<string, number>, what: RegExp, step?: string): number {
  let total = 0;
  for (const [key, n] of Object.entries(counts)) {
    const [name, at] = key.split('@');
    if (what.test(name!) && (step === undefined || at === step)) total += n;
  }
  return total;
}

/** The counts of the next second: the chain's trailing writes (status, events) included. */
async function settle(collector: ReturnType<typeof collectCounts>): Promise<Record<string, number>> {
  await sleep(1000);
  return collector.take();
}

/**
 * Catalogue-store calls of one upload, besides the outbox's polls and the steps' progress writes:
 * 54 for the five steps up to convert, a few more for the validate step after it.
 */
const STORE_CALLS = 57;

const STEPS = ['annotate', 'import', 'describe', 'select-mapping', 'convert', 'validate'];

test(
  'one upload through the chain: its counts, each within its bound',
  // The counts are the embedded bus's: on Kafka the registry's codec checks each payload a further time.
  { skip: testTransport() !== 'embedded' },
  async () => {
    await e.ready;
    await e.call('package_create', { name: 'counted' });
    // The test's own reads go to a store of its own, which counts nothing (openCatalogueStore's does).
    const store = await openEmbeddedCatalogue(e.labld.dataDir);
    const collector = collectCounts();
    const upload: Record<string, number> = {};
    try {
      const csv = await e.uploadSeed('counted', true);
      for (const deadline = Date.now() + 120_000; ; await sleep(200)) {
        const names = (await store.listResources('counted')).map((r) => r.name);
        for (const [key, n] of Object.entries(collector.take())) upload[key] = (upload[key] ?? 0) + n;
        if (names.includes('example-joined.ttl')) break;
        assert.ok(Date.now() < deadline, `no joined graph yet: ${names.join(', ')}`);
      }
      const trailing = await settle(collector);
      for (const [key, n] of Object.entries(trailing)) upload[key] = (upload[key] ?? 0) + n;
      const perStep = STEPS.map((step) => ({
        step,
        csv: sum(upload, /^parse\.csv$/, step),
        descriptor: sum(upload, /^parse\.json$/, step),
      }));
      // The outbox relay's polls come with time, not with the upload: counted apart.
      const polls = sum(upload, /^store\.claimOutbox$/);
      // So do a long step's progress writes (a read and a write of its status row per report).
      const progress = STEPS.reduce((n, step) => n + sum(upload, /^store\.(get|put)StepStatus$/, step), 0);
      const counts = {
        bus: sum(upload, /^bus\.publish$/),
        handoffs: sum(upload, /^handoff\./),
        store: sum(upload, /^store\./) - polls - progress,
        validations: sum(upload, /^validate$/),
      };
      const parses = perStep.map((p) => `${p.step} csv ${p.csv} descriptor ${p.descriptor}`).join(', ');
      console.log(
        `counts per upload: ${counts.bus} bus messages, ${counts.handoffs} thread hand-offs, ` +
          `${counts.store} store calls (and ${progress} progress writes, ${polls} outbox polls), ${counts.validations} validations ` +
          `(${(counts.validations / counts.bus).toFixed(1)} per bus message); parses: ${parses}`,
      );
      console.log(`counts per upload, raw: ${JSON.stringify(upload)}`);
      // One message and one hand-off per step (the upload's event, then each step's next).
      assert.ok(counts.bus <= 8, `bus messages: ${counts.bus}`);
      assert.ok(counts.handoffs <= 7, `thread hand-offs: ${counts.handoffs}`);
      assert.ok(counts.store <= STORE_CALLS, `store calls: ${counts.store}`);
      assert.ok(counts.validations <= 19, `validations: ${counts.validations}`);
      // The CSV once per step that reads it; the descriptor once per step (convert parsed it 3 times).
      assert.deepEqual(
        perStep.map((p) => [p.step, p.csv, p.descriptor]),
        [
          ['annotate', 1, 0],
          ['import', 1, 1],
          ['describe', 1, 1],
          ['select-mapping', 0, 1],
          ['convert', 0, 1],
          ['validate', 0, 0],
        ],
      );
      // The dataset page and the two sections automation.js fetches again, and the CSV's page
      // with its table preview (issue 25: it made seven calls one after another): one composite
      // read each.
      for (const path of ['', '/resources', '/automation', `/resource/${csv}`]) {
        collector.take();
        const answer = await fetch(`${e.labld.url}/dataset/counted${path}`, { headers: e.auth() });
        assert.equal(answer.status, 200, `/dataset/counted${path}`);
        const html = await answer.text();
        // The preview's rows are on the page (the seed CSV's first row), not only its frame.
        if (path.startsWith('/resource/')) assert.match(html, /<table[\s\S]*<td[^>]*>[^<]*\d/);
        const page = await settle(collector);
        const trips = sum(page, /^bus\.publish$/) / 2; // a request and its reply
        const calls = sum(page, /^store\./) - sum(page, /^store\.claimOutbox$/);
        console.log(
          `counts per page /dataset/counted${path}: ${trips} request/reply round trips, ${calls} store calls`,
        );
        assert.equal(trips, 1, `request/reply round trips of /dataset/counted${path}`);
      }
    } finally {
      collector.close();
      await store.close();
    }
  },
);
