// csv2rdf throughput (annotator /api/rdf): for numeric CSVs of 100,000 and 1,000,000 rows × 20
// columns (the lab table) with the descriptor the annotator itself makes of them,
// measures, in this run and on the same files:
//   floor    — the annotator's read floor: read the file as a stream, decode UTF-8 and split it
//              into lines (as bench/annotate.ts; best of two reads)
//   annotate — the annotator's own pass over the file (its descriptor), for scale
//   csv2rdf  — descriptor + CSV → Turtle streamed into a blob store, as describe does
//   write floor — read the CSV and write as many lines as csv2rdf made triples, as many bytes as
//              its Turtle, with no RDF logic: describe's floor (issue 29)
//   http     — the same through the real path, for files up to --http-rows: labld on the embedded
//              bus, POST /annotator/api/rdf?return_type=turtle with the descriptor's URL, CSV and
//              descriptor served by `python3 -m http.server` (HTTP/1.0: it closes each connection
//              after the body), timed to the answer's last byte
// each in its own process (so that its peak RSS, /proc's VmHWM, is its own),
// and prints per size rows/s, triples/s, the stored Turtle's size, peak RSS and the
// csv2rdf/floor ratio (wall and CPU time), and http/csv2rdf (goal ≤ 1.5×). Usage:
//   node bench/csv2rdf.ts [--rows 100000,1000000] [--http-rows 100000] [--pairs 3] [--keep]
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { unitIndex } from '../lib/annotator/index.ts';
import { BlobStore } from '../lib/blobs/blob-store.ts';
import { storeDownloadStream } from '../lib/blobs/download.ts';
import { descriptorTurtle, type ResourceLoader } from '../lib/csvw/index.ts';
import { COLUMNS, annotatorDescriptor, writeNumericCsv } from '../test/support/numeric-table.ts';
import { peakRssBytes } from '../test/support/rss.ts';
import { readFloor, writeFloor } from './floor.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000,1000000' },
    'http-rows': { type: 'string', default: '100000' },
    pairs: { type: 'string', default: '3' },
    keep: { type: 'boolean' },
    measure: { type: 'string' },
    file: { type: 'string' },
    metadata: { type: 'string' },
    triples: { type: 'string' },
    bytes: { type: 'string' },
  },
});

const CSV_URL = 'https://lab.example.org/files/lab.csv';
const METADATA_URL = 'https://lab.example.org/files/lab-metadata.json';

interface Pass {
  seconds: number;
  /** CPU time (user + system): less disturbed than wall time by other processes. */
  cpuSeconds: number;
  peakRss: number;
  triples: number;
  bytes: number;
}

async function timed(work: () => Promise<{ triples: number; bytes: number }>): Promise<Pass> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const { triples, bytes } = await work();
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - start) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRss: peakRssBytes(),
    triples,
    bytes,
  };
}

async function csv2rdf(path: string, metadataPath: string): Promise<{ triples: number; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-csv2rdf-store-'));
  try {
    const blobs = new BlobStore(dir);
    const metadata = readFileSync(metadataPath, 'utf8');
    const load: ResourceLoader = async (url) =>
      url === METADATA_URL ? { text: metadata } : { body: createReadStream(path) };
    // What describe does (lib/chain/steps.ts): the Turtle written as text while the CSV streams.
    const graph = await descriptorTurtle({ metadataUrl: METADATA_URL }, load);
    const download = await storeDownloadStream(blobs, graph.chunks, 'text/turtle', 'lab.ttl');
    const { triples } = graph.counts;
    return { triples, bytes: blobs.size(download.blob) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `python3 -m http.server` serving `dir` on a free loopback port: its origin, and how to stop it. */
async function pythonFileServer(dir: string): Promise<{ origin: string; stop(): void }> {
  const server = spawn(
    'python3',
    ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const lines = createInterface({ input: server.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  const port = /port (\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`python3 -m http.server said: ${line}`);
  return { origin: `http://127.0.0.1:${port}`, stop: () => server.kill() };
}

/** POST /annotator/api/rdf on labld for the CSV at `path`, served over HTTP: timed from the request to the last byte. */
async function httpCsv2rdf(path: string): Promise<Pass> {
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  process.env['LABLD_LOG_LEVEL'] ??= 'silent';
  const { benchLabld } = await import('./support.ts');
  const files = await pythonFileServer(dirname(path));
  const labld = await benchLabld();
  try {
    const csvUrl = `${files.origin}/${basename(path)}`;
    const metadataName = `${basename(path)}-http-metadata.json`;
    writeFileSync(join(dirname(path), metadataName), await annotatorDescriptor(path, csvUrl));
    const body = JSON.stringify({ metadata_url: `${files.origin}/${metadataName}` });
    const post = () =>
      new Promise<{ status: number; bytes: number }>((resolve, reject) => {
        const url = new URL(
          'annotator/api/rdf?return_type=turtle',
          labld.url.endsWith('/') ? labld.url : `${labld.url}/`,
        );
        const req = request(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // The triples are not counted here (that would add a parse): the run's are the domain's.
    return await timed(async () => {
      const answer = await post();
      if (answer.status !== 200) throw new Error(`POST /annotator/api/rdf answered ${answer.status}`);
      return { triples: 0, bytes: answer.bytes };
    });
  } finally {
    await labld.stop();
    files.stop();
  }
}

async function measure(kind: string, path: string, metadataPath: string): Promise<void> {
  let pass: Pass;
  if (kind === 'floor') {
    // Best of two reads: the first warms the JIT and the page cache.
    const floor = () => timed(async () => ({ triples: 0, bytes: await readFloor(path) }));
    const [a, b] = [await floor(), await floor()];
    pass = a.seconds < b.seconds ? a : b;
  } else if (kind === 'annotate') {
    unitIndex(); // once per process, as at labld's start
    pass = await timed(async () => ({
      triples: 0,
      bytes: (await annotatorDescriptor(path, CSV_URL)).length,
    }));
  } else if (kind === 'write-floor') {
    // As many lines as csv2rdf's triples, as many bytes as its output: the volume, no RDF.
    const triples = Number(values.triples);
    const rows = (await readFloor(path)) - 1;
    const out = `${path}.floor.nt`;
    try {
      pass = await timed(async () => ({
        triples: await writeFloor(
          path,
          out,
          Math.max(1, Math.round(triples / rows)),
          Math.round(Number(values.bytes) / triples),
        ),
        bytes: 0,
      }));
    } finally {
      rmSync(out, { force: true });
    }
  } else if (kind === 'http') {
    pass = await httpCsv2rdf(path);
  } else {
    pass = await timed(() => csv2rdf(path, metadataPath));
  }
  console.log(JSON.stringify(pass));
}

function pass(kind: string, path: string, metadataPath: string, extra: string[] = []): Pass {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--measure', kind, '--file', path, '--metadata', metadataPath, ...extra],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.toString('utf8').trim().split('\n').pop() as string) as Pass;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const count = (n: number): string => Math.round(n).toLocaleString('en-US');

if (values.measure) {
  await measure(values.measure, values.file as string, values.metadata as string);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-csv2rdf-'));
  try {
    for (const rows of (values.rows as string).split(',').map(Number)) {
      const file = join(dir, `lab-${rows}.csv`);
      const size = await writeNumericCsv(file, rows);
      const metadataPath = join(dir, `lab-${rows}-metadata.json`);
      writeFileSync(metadataPath, await annotatorDescriptor(file, CSV_URL));
      console.log(
        `file: ${count(rows)} rows × ${COLUMNS} numeric columns, ${(size / 1024 / 1024).toFixed(1)} MB, descriptor by the annotator (${file})`,
      );
      const floor = pass('floor', file, metadataPath);
      const annotate = pass('annotate', file, metadataPath);
      const run = pass('csv2rdf', file, metadataPath);
      console.log(
        `floor (annotator's read: read + decode + split lines): ${(size / 1024 / 1024 / floor.seconds).toFixed(0)} MB/s (${floor.seconds.toFixed(2)} s), peak RSS ${mb(floor.peakRss)}`,
      );
      console.log(
        `annotate (the annotator's pass, for scale): ${(size / 1024 / 1024 / annotate.seconds).toFixed(0)} MB/s (${annotate.seconds.toFixed(2)} s), peak RSS ${mb(annotate.peakRss)}`,
      );
      console.log(
        `csv2rdf → stored Turtle: ${run.seconds.toFixed(2)} s, ${count(rows / run.seconds)} rows/s, ${count(run.triples / run.seconds)} triples/s (${count(run.triples)} triples, ${mb(run.bytes)} Turtle), peak RSS ${mb(run.peakRss)}`,
      );
      console.log(
        `ratio csv2rdf/floor: ${(run.seconds / floor.seconds).toFixed(0)}x wall, ${(run.cpuSeconds / floor.cpuSeconds).toFixed(0)}x by CPU time (floor ${floor.cpuSeconds.toFixed(2)} s, csv2rdf ${run.cpuSeconds.toFixed(2)} s); csv2rdf/annotate ${(run.seconds / annotate.seconds).toFixed(1)}x`,
      );
      const written = pass('write-floor', file, metadataPath, [
        '--triples',
        String(run.triples),
        '--bytes',
        String(run.bytes),
      ]);
      console.log(
        `write floor (read the CSV, write as many lines as triples, as many bytes as the Turtle, no RDF): ${written.seconds.toFixed(2)} s, ${count(written.triples / written.seconds)} lines/s`,
      );
      console.log(
        `ratio describe/write floor: ${(run.triples / run.seconds / (written.triples / written.seconds)).toFixed(2)}x the floor's lines/s in triples/s by wall time, ${(run.triples / run.cpuSeconds / (written.triples / written.cpuSeconds)).toFixed(2)}x by CPU time (goal ≥ 0.5x)`,
      );
      console.log(
        'describe against rdf-tabular or Morph-KGC: not run — rdf-tabular is a Ruby gem (no RubyGems here) and Morph-KGC converts RML mappings, not a CSVW descriptor (bench/rml.ts runs it on RML)',
      );
      if (rows <= Number(values['http-rows'])) {
        // Interleaved pairs (domain, then HTTP), the ratio their median: a machine whose load
        // drifts during the run moves both passes of a pair, not one side of the ratio.
        const ratios: number[] = [];
        for (let n = 0; n < Math.max(1, Number(values.pairs)); n += 1) {
          const domain = n === 0 ? run : pass('csv2rdf', file, metadataPath);
          const http = pass('http', file, metadataPath);
          ratios.push(http.seconds / domain.seconds);
          console.log(
            `POST /annotator/api/rdf (labld, CSV and descriptor from python3 -m http.server): ${http.seconds.toFixed(2)} s, ${count(rows / http.seconds)} rows/s, ${mb(http.bytes)} Turtle, peak RSS ${mb(http.peakRss)} (labld and this client in one process); csv2rdf of its pair ${domain.seconds.toFixed(2)} s`,
          );
        }
        const sorted = [...ratios].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)] as number;
        console.log(
          `ratio http/csv2rdf: ${median.toFixed(2)}x wall, the median of ${ratios.length} interleaved pairs (${ratios.map((r) => r.toFixed(2)).join(', ')}) (goal ≤ 1.5x)`,
        );
      }
      if (!values.keep) rmSync(file, { force: true });
    }
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}
