// Runs in a worker thread for the long-CSV test: sends the request and counts the answered
// Turtle as it streams in (n3's StreamParser, nothing kept), so that neither a gigabyte of text
// nor the parsing of it lands on the main thread, which is labld's event loop.
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { parentPort, workerData } from 'node:worker_threads';
import { StreamParser, type Quad } from 'n3';

export interface CountRequest {
  url: string;
  body: string;
  /** The descriptor's column IRIs: the predicates linking a row's entity to its cells. */
  columnIris: string[];
}

export interface GraphCounts {
  status: number;
  /** The answer's text when it is not a 200 (its start). */
  text?: string;
  /** Why the Turtle did not parse to its end. */
  parseError?: string;
  total: number;
  tableRows: number;
  rowsTyped: number;
  describes: number;
  /** csvw:url objects ending `row=<n>`: how many, and whether each n in 1..rows came once. */
  rowUrls: number;
  rowNumbersComplete: boolean;
  quantityValues: number;
  values: number;
  /** Sum of the qudt:value literals in tenths, as a decimal string (a bigint does not cross). */
  valueSumTenths: string;
  cellUnits: number;
  cellLinks: number;
}

const CSVW = 'http://www.w3.org/ns/csvw#';
const QUDT = 'http://qudt.org/schema/qudt/';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

async function count({ url, body, columnIris }: CountRequest, rows: number): Promise<GraphCounts> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const counts: GraphCounts = {
    status: response.status,
    total: 0,
    tableRows: 0,
    rowsTyped: 0,
    describes: 0,
    rowUrls: 0,
    rowNumbersComplete: false,
    quantityValues: 0,
    values: 0,
    valueSumTenths: '0',
    cellUnits: 0,
    cellLinks: 0,
  };
  if (response.status !== 200) return { ...counts, text: (await response.text()).slice(0, 2000) };
  const columns = new Set(columnIris);
  const seen = new Uint8Array(rows + 1);
  let duplicates = 0;
  let sum = 0n;
  const parser = new StreamParser({ format: 'text/turtle' });
  const onQuad = (q: Quad): void => {
    counts.total++;
    const p = q.predicate.value;
    const o = q.object;
    if (p === `${CSVW}row`) counts.tableRows++;
    else if (p === `${CSVW}describes`) counts.describes++;
    else if (p === TYPE && o.value === `${CSVW}Row`) counts.rowsTyped++;
    else if (p === TYPE && o.value === `${QUDT}QuantityValue`) counts.quantityValues++;
    else if (p === `${QUDT}value`) {
      counts.values++;
      sum += BigInt(Math.round(Number(o.value) * 10));
    } else if (p === `${QUDT}unit` && q.subject.termType === 'BlankNode') counts.cellUnits++;
    else if (columns.has(p)) counts.cellLinks++;
    else if (p === `${CSVW}url` && o.termType === 'NamedNode') {
      const n = Number(/row=(\d+)$/.exec(o.value)?.[1]);
      if (n >= 1 && n <= rows) {
        counts.rowUrls++;
        if (seen[n]) duplicates++;
        seen[n] = 1;
      }
    }
  };
  await new Promise<void>((resolve) => {
    parser.on('data', onQuad);
    parser.on('end', () => resolve());
    parser.on('error', (error: Error) => {
      counts.parseError = error.message;
      resolve();
    });
    Readable.fromWeb(response.body as ReadableStream).pipe(parser);
  });
  counts.valueSumTenths = sum.toString();
  counts.rowNumbersComplete = duplicates === 0 && seen.subarray(1).every((b) => b === 1);
  return counts;
}

const { request, rows } = workerData as { request: CountRequest; rows: number };
parentPort!.postMessage(await count(request, rows));
