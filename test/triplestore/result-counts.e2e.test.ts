// Issue 27, "do each thing once": a query's result is written once, by the store, in the format
// the client asked for, and goes to the client as it is — never parsed and written again on the
// way (it was: the embedded store wrote SPARQL JSON, parsed it to count rows; the gateway parsed
// it again to write XML, CSV or TSV, and parsed N-Triples to write Turtle). Through the real
// endpoint on the embedded store, counting the serialisations and parses of each result
// (lib/process/counters.ts: `result.write`, `result.parse`), for a small result (inline on the
// bus) and a large one (its text in the blob store).
import '../chain/counting-on.ts';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collectCounts } from '../../lib/process/counters.ts';
import type { Running } from '../support/labld.ts';
import { sleep } from '../support/wait.ts';
import { sparql, startWithPublicGraph } from './endpoint-support.ts';

/** Enough rows that the large answers pass the bus's inline limit (lib/blobs/claim-check.ts). */
const SUBJECTS = 2000;

function turtle(): string {
  const lines = ['@prefix ex: <http://example.org/> .'];
  for (let i = 0; i < SUBJECTS; i++) {
    lines.push(`ex:m${i} ex:force ${i}.5 ; ex:unit "k\\"N\\", ${i}"@en ; ex:kind ex:Kind${i % 3} .`);
  }
  return `${lines.join('\n')}\n`;
}

let labld: Running & { dataDir: string };

before(async () => {
  labld = await startWithPublicGraph('counted', 'counted-joined.ttl', turtle(), 60_000);
});
after(() => labld?.stop());

const SELECT = 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }';
const CONSTRUCT = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }';
const SMALL = ' ORDER BY ?s ?p LIMIT 3';

const ASKS = [
  ['application/sparql-results+json', SELECT],
  ['application/sparql-results+xml', SELECT],
  ['text/csv', SELECT],
  ['text/tab-separated-values', SELECT],
  ['text/turtle', CONSTRUCT],
  ['application/n-triples', CONSTRUCT],
  ['application/ld+json', CONSTRUCT],
] as const;

test('a SELECT as JSON, XML, CSV or TSV and a CONSTRUCT as Turtle, N-Triples or JSON-LD: written once, parsed never', async () => {
  const collector = collectCounts();
  const seen: string[] = [];
  try {
    for (const [accept, query] of ASKS) {
      for (const [size, text] of [
        ['large', query],
        ['small', query + SMALL],
      ] as const) {
        collector.take();
        const answer = await sparql(labld.url, 'counted', text, { accept });
        assert.equal(answer.status, 200, `${accept} ${size}: ${answer.text.slice(0, 300)}`);
        assert.match(answer.type, new RegExp(`^${accept.replace('+', '\\+')}`));
        assert.ok(answer.text.length > (size === 'large' ? 200_000 : 0), `${accept} ${size}: its text`);
        // Counts arrive on a BroadcastChannel from every thread: given a moment.
        await sleep(300);
        const counts = collector.take();
        const writes = counts['result.write'] ?? 0;
        const parses = counts['result.parse'] ?? 0;
        seen.push(`${accept} ${size}: ${writes} write, ${parses} parse`);
      }
    }
  } finally {
    collector.close();
  }
  console.log(`result counts: ${seen.join('; ')}`);
  assert.deepEqual(
    seen,
    ASKS.flatMap(([accept]) => [`${accept} large: 1 write, 0 parse`, `${accept} small: 1 write, 0 parse`]),
  );
});
