// A process that loads one graph into the embedded store and then waits to be killed: the
// kill -9 test in embedded.test.ts. Arguments: data dir, dataset, graph, triples, label.
import { Readable } from 'node:stream';
import { openTripleStore } from '../../lib/triplestore/open.ts';
import { numbered } from './support.ts';

const [dataDir, dataset, graph, size, label] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = await openTripleStore({
  url: '',
  dataDir,
  limits: { timeoutMs: 60_000, maxResults: 10 },
  memoryTriples: 1e7,
});
const body = Readable.from([Buffer.from(numbered(Number(size), label))]);
process.stdout.write('loading\n');
await store.replaceGraph(dataset, graph, { format: 'text/turtle', body });
process.stdout.write('loaded\n');
setInterval(() => {}, 1000);
