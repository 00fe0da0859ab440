// The client of big-results.e2e.test.ts, in a worker thread of its own: labld runs in the test
// process's main thread, whose event loop is what the test watches, so the client's own work
// (decoding 20 MB answers, holding them, parsing them to count) must not happen there. It sends
// the requests one after another; told `count`, it counts each answer's triples or rows.
import { parentPort, workerData } from 'node:worker_threads';
import { parse, type RdfFormat } from '../../lib/rdf/index.ts';

export interface Ask {
  accept: string;
  query: string;
  /** A graph answer's syntax, parsed to count its triples; a table's rows are counted by `accept`. */
  graph?: RdfFormat;
}

export interface Answered {
  accept: string;
  status: number;
  type: string;
  ms: number;
  /** Triples or rows; undefined when the answer was not 200. */
  counted: number | undefined;
  /** The start of a failed answer, to say why. */
  head: string;
}

const { endpoint, asks } = workerData as { endpoint: string; asks: Ask[] };

function rows(text: string, accept: string): number {
  switch (accept) {
    case 'application/sparql-results+json':
      return (JSON.parse(text) as { results: { bindings: unknown[] } }).results.bindings.length;
    case 'application/sparql-results+xml':
      return text.split('<result>').length - 1;
    // Header line and the final line break: no value here holds a line break.
    case 'text/csv':
      return text.split('\r\n').length - 2;
    default:
      return text.split('\n').length - 2;
  }
}

const texts: string[] = [];
const answered: Answered[] = [];
for (const ask of asks) {
  const start = performance.now();
  const response = await fetch(`${endpoint}?query=${encodeURIComponent(ask.query)}`, {
    headers: { accept: ask.accept },
  });
  const text = await response.text();
  texts.push(text);
  answered.push({
    accept: ask.accept,
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    ms: Math.round(performance.now() - start),
    counted: undefined,
    head: text.slice(0, 300),
  });
}
parentPort!.postMessage('requested');
await new Promise((resolve) => parentPort!.once('message', resolve));
for (const [i, ask] of asks.entries()) {
  const text = texts[i]!;
  if (answered[i]!.status !== 200) continue;
  answered[i]!.counted = ask.graph ? (await parse(text, ask.graph)).length : rows(text, ask.accept);
}
parentPort!.postMessage(answered);
