// Extractor latency and bundle throughput through the HTTP gateway (embedded bus), against the
// openBIS test double, with floors measured in the same run:
//   records — GET /extractor/object/<permId> (JSON-LD, Turtle) and /dataset/<permId>, warm:
//             p50 and p99; floor: the double's own answer time for the openBIS calls the record
//             needs (isSessionActive + the get, + searchFiles for a data set), called directly.
//   bundle  — POST /extractor/export_bundle of a data set holding one file of --mb megabytes
//             (random bytes): MB/s to the last byte of the ZIP, when its first byte came (it
//             streams while it is built), and the process's peak RSS; floor:
//             the same file downloaded straight from the double.
// Usage: LABLD_LOG_LEVEL=silent node bench/extractor.ts [--runs 200] [--mb 1000]
import { parseArgs } from 'node:util';
import { Agent, fetch } from 'undici';
import { benchLabld, percentile, time } from './support.ts';
import { pointLabldAt, startOpenbisDouble } from '../test/support/openbis-double.ts';
import { peakRssBytes } from '../test/support/rss.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '200' }, mb: { type: 'string', default: '1000' } },
});
const runs = Number(values.runs);
const bytes = Number(values.mb) * 1_000_000;

const OBJECT = '20230531140916169-35';
const DATASET = '20240904142300681-40';
const BIG = '20240904150000000-77';
const BASE = 'http://labld.bench';

const double = await startOpenbisDouble();
double.data.addDataSetLike(DATASET, BIG, []);
double.addHugeFile(BIG, 'original/big.bin', bytes);
pointLabldAt(double, BASE, { LABLD_FETCH_MAX_BYTES: `${bytes + 1}` });
const labld = await benchLabld();

const rpc = async (
  method: string,
  params: unknown[],
  path = '/openbis/openbis/rmi-application-server-v3.json',
) => {
  const res = await fetch(double.origin + path, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(JSON.stringify(body.error));
  return body.result;
};
const token = (await rpc('login', ['admin', 'changeit'])) as string;

const get = async (path: string, accept: string) => {
  const res = await fetch(`${labld.url}/extractor${path}`, {
    headers: { authorization: `Token ${token}`, accept },
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
};
const sampleId = { '@type': 'as.dto.sample.id.SamplePermId', permId: OBJECT };
const dataSetId = { '@type': 'as.dto.dataset.id.DataSetPermId', permId: DATASET };
const objectFloor = await time(runs, async () => {
  await rpc('isSessionActive', [token]);
  await rpc('getSamples', [token, [sampleId], {}]);
});
const dataSetFloor = await time(runs, async () => {
  await rpc('isSessionActive', [token]);
  await rpc('getDataSets', [token, [dataSetId], {}]);
  await rpc(
    'searchFiles',
    [token, { value: DATASET }, {}],
    '/datastore_server/rmi-data-store-server-v3.json',
  );
});
const objectJsonLd = await time(runs, () => get(`/object/${OBJECT}`, 'application/ld+json'));
const objectTurtle = await time(runs, () => get(`/object/${OBJECT}`, 'text/turtle'));
const dataSet = await time(runs, () => get(`/dataset/${DATASET}`, 'application/ld+json'));

const line = (name: string, sorted: number[], floor: number[]) =>
  console.log(
    `${name.padEnd(36)} p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms` +
      (sorted === floor
        ? ''
        : `  (${(percentile(sorted, 50) / percentile(floor, 50)).toFixed(1)}x the double's p50)`),
  );
line('double: object calls (floor)', objectFloor, objectFloor);
line('GET /object JSON-LD', objectJsonLd, objectFloor);
line('GET /object Turtle', objectTurtle, objectFloor);
line('double: data-set calls (floor)', dataSetFloor, dataSetFloor);
line('GET /dataset JSON-LD', dataSet, dataSetFloor);

let firstByte = 0;
const drain = async (res: Response) => {
  let size = 0;
  for await (const chunk of res.body!) {
    if (size === 0) firstByte = performance.now();
    size += (chunk as Uint8Array).byteLength;
  }
  return size;
};
const rssBefore = process.memoryUsage().rss;
let start = performance.now();
const direct = await drain(
  await fetch(
    `${double.origin}/datastore_server/${BIG}/original/big.bin?sessionID=${encodeURIComponent(token)}`,
  ),
);
const floorSeconds = (performance.now() - start) / 1000;
start = performance.now();
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
const res = await fetch(`${labld.url}/extractor/export_bundle`, {
  method: 'POST',
  dispatcher: patient,
  headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify([`${BASE}/extractor/dataset/${BIG}`]),
});
if (res.status !== 200) throw new Error(`bundle: ${res.status} ${await res.text()}`);
const zipSize = await drain(res);
const seconds = (performance.now() - start) / 1000;
const mb = (n: number) => n / 1_000_000;
console.log(
  `double: the file straight (floor)      ${(mb(direct) / floorSeconds).toFixed(1)} MB/s (${mb(direct).toFixed(0)} MB)`,
);
console.log(
  `POST /export_bundle, one ${mb(bytes).toFixed(0)} MB file      ${(mb(bytes) / seconds).toFixed(1)} MB/s to the last byte ` +
    `(ZIP ${mb(zipSize).toFixed(0)} MB, first byte after ${(firstByte - start).toFixed(0)} ms), peak RSS ${(peakRssBytes() / 2 ** 20).toFixed(0)} MB (${mb(rssBefore).toFixed(0)} MB before)`,
);
await labld.stop();
await double.close();
