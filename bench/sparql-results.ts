// A large SELECT through the HTTP endpoint (issue 27: a result written once, by the store, and
// sent as it is): a public dataset of --rows triples (4 a subject: a tagged, a typed and a plain
// literal and an IRI) loaded into the embedded store, then `SELECT ?s ?p ?o` of all of them asked
// as CSV and as SPARQL JSON, alternately, --runs times each; min and median of each, the first
// byte's and the whole answer's, with the machine's load average.
//
// Run: LABLD_LOG_LEVEL=silent node bench/sparql-results.ts [--rows 100000] [--runs 5]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { endpoint, startWithPublicGraph } from '../test/triplestore/endpoint-support.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } },
});
const rows = Number(values.rows);
const runs = Number(values.runs);

function graph(): string {
  const lines = ['@prefix ex: <http://example.org/> .'];
  for (let i = 0; i < rows / 4; i++) {
    lines.push(
      `ex:s${i} ex:label "Probe ${i}"@de ; ex:force "${i}.5"^^<http://www.w3.org/2001/XMLSchema#decimal> ;` +
        ` ex:kind ex:Kind${i % 7} ; ex:note "a \\"quoted\\" note, ${i}" .`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const labld = await startWithPublicGraph('bench', 'bench-joined.ttl', graph(), 300_000);
try {
  const url = `${endpoint(labld.url, 'bench')}?query=${encodeURIComponent('SELECT ?s ?p ?o WHERE { ?s ?p ?o }')}`;
  const times: Record<string, { first: number[]; all: number[] }> = {};
  for (let run = 0; run < runs; run++) {
    for (const accept of ['text/csv', 'application/sparql-results+json']) {
      const start = performance.now();
      const answer = await fetch(url, { headers: { accept } });
      const reader = answer.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        first ||= performance.now() - start;
        bytes += value.byteLength;
      }
      const all = performance.now() - start;
      if (answer.status !== 200) throw new Error(`${accept}: ${answer.status}`);
      const entry = (times[`${accept} (${(bytes / 1e6).toFixed(1)} MB)`] ??= { first: [], all: [] });
      entry.first.push(first);
      entry.all.push(all);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  for (const [what, { first, all }] of Object.entries(times)) {
    console.log(
      `sparql-results: ${rows} rows as ${what}: whole answer min ${Math.round(Math.min(...all))} ms, median ${Math.round(median(all))} ms;` +
        ` first byte median ${Math.round(median(first))} ms (${runs} runs; load average ${load()})`,
    );
  }
} finally {
  await labld.stop();
}
