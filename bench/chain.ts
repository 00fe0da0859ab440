// The automation chain end to end (issue 14), against a labld started as its own process
// (`labld start`: every gateway and consumer on the embedded bus, the steps in its worker
// threads), on seed-like CSVs: the seed example.csv's 18 metadata and header lines, then its
// data rows over and over (the time column counting on) up to the size asked for.
//
//   small — upload → joined graph (`<base>-joined.ttl` stored, every step done) for a ~1 MB
//           file, p50/p99 over --runs uploads (goal p50 ≤ 400 ms), next to the sum of the five
//           steps' domain functions called directly in this process on the same file
//           (annotateStep, importCsv, describeStep, selectMapping, convertStep); goal: the
//           chain's p50 ≤ 1.3× the sum's. Where the chain's time goes: each step's time inside
//           the chain against its domain function's, and the waits between the steps.
//   large — one --large-mb file (default 1024 MB) through the chain in a fresh labld, with
//           each step's time and the peak RSS (VmHWM) of every process: labld and this client,
//           which streams the upload from disk (goal < 512 MB each).
//   rows  — the --small-mb file through the chain in a fresh labld, then Load with its rows
//           (triplestore_load rows: true): triples loaded per second of the load, and labld's
//           RSS while it ran (sampled) beside its peak (VmHWM, the chain's steps included).
//
// The mapping library (the seed mapping and a decoy) is served as the e2e test serves it;
// the seed mapping's template comes from a local stand-in for GitHub.
//
// Usage: node bench/chain.ts [--runs 10] [--small-mb 1] [--large-mb 1024] [--skip-small] [--skip-rows]
//                            [--skip-large] [--keep]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { text as readText } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { BlobStore } from '../lib/blobs/blob-store.ts';
import { maxOutputBytes } from '../lib/blobs/download.ts';
import {
  CHAIN_STEPS,
  annotateStep,
  convertStep,
  describeStep,
  selectMapping,
  type ChainFile,
  type MappingEntry,
} from '../lib/chain/index.ts';
import {
  STARTER_MAPPING,
  STARTER_TEMPLATE,
  starterMapping,
  starterTemplate,
} from '../lib/catalogue/starter-library.ts';
import { openEmbeddedDatastore } from '../lib/datastore/embedded.ts';
import { importCsv } from '../lib/datastore/import.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import { baseUrl } from '../lib/services.ts';
import { textLoader } from '../lib/sources.ts';
import { startFixtureServer } from '../test/converter/fixture-server.ts';
import { HARDNESS_MAPPING_TEXT } from '../test/chain/support.ts';
import { peakRssBytes } from '../test/support/rss.ts';
import { readSeed, seedFixture } from '../test/support/shared.ts';
import { action, joined, library, startChild, upload, type Dict } from './labld-child.ts';
import { writeFloor } from './floor.ts';
import { percentile } from './percentile.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'small-mb': { type: 'string', default: '1' },
    'large-mb': { type: 'string', default: '1024' },
    'skip-small': { type: 'boolean' },
    'skip-rows': { type: 'boolean' },
    'skip-large': { type: 'boolean' },
    keep: { type: 'boolean' },
  },
});
const runs = Number(values.runs);
const MB = 1024 * 1024;
/** How often a run's status is read: its end is the time labld stamps, so this bounds no measure. */
const POLL_MS = 50;

process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
const files = await startFixtureServer();
const seedMapping = files.local(readSeed('rdfconverter/csvw-template-map.yaml'));

// ---- the seed-like file ----

/** The seed's lines as bytes (it is latin-1: kept as is). */
function seedLines(): { head: Buffer[]; rows: string[] } {
  const bytes = readFileSync(seedFixture('csvtocsvw/example.csv'));
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    lines.push(bytes.subarray(start, end < 0 ? bytes.length : end));
    start = end < 0 ? bytes.length : end + 1;
  }
  // 16 metadata lines, the header and the unit row; the rest are ASCII numbers.
  return { head: lines.slice(0, 18), rows: lines.slice(18).map((l) => l.toString('latin1')) };
}

async function generate(path: string, bytes: number): Promise<number> {
  const { head, rows } = seedLines();
  const out = createWriteStream(path);
  const write = async (chunk: Buffer | string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  for (const line of head) await write(Buffer.concat([line, Buffer.from('\n')]));
  let written = head.reduce((n, l) => n + l.length + 1, 0);
  for (let i = 0; written < bytes;) {
    let chunk = '';
    for (let k = 0; k < 1000 && written + chunk.length < bytes; k++, i++) {
      const cells = rows[i % rows.length]!.split('\t');
      cells[0] = (0.02 * (i + 1)).toFixed(2); // the test time goes on
      chunk += `${cells.join('\t')}\n`;
    }
    written += chunk.length;
    await write(chunk);
  }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

// ---- the steps' domain functions, called directly ----

// The steps up to the joined graph (validate runs after it, and is not waited for).
const STEPS = CHAIN_STEPS.filter((step) => step !== 'validate');
type Step = (typeof CHAIN_STEPS)[number];
const total = (times: Record<Step, number>) => STEPS.reduce((n, step) => n + times[step], 0);

/** One pass of the five steps' domain functions over the file, each step timed. */
async function directSteps(path: string, dir: string) {
  const blobs = new BlobStore(join(dir, 'blobs'));
  const datastore = await openEmbeddedDatastore(join(dir, 'datastore.sqlite'));
  const site = 'http://localhost:8000/dataset/d/resource';
  const csv: ChainFile = {
    url: `${site}/r-csv/download/seed-like.csv`,
    blob: await blobs.putStream((await openAsBlob(path)).stream()),
    name: 'seed-like.csv',
  };
  // The library labld has on a fresh install (its starter mapping, whose template this process
  // serves) plus the two the bench uploads: the same mapping is selected and run on both sides.
  const starterTemplateUrl = files.put(`/starter/${STARTER_TEMPLATE}`, starterTemplate());
  const mappings: MappingEntry[] = [
    {
      name: STARTER_MAPPING,
      url: `${site}/m0/download/${STARTER_MAPPING}`,
      text: starterMapping(starterTemplateUrl),
    },
    { name: 'hardness-map.yaml', url: `${site}/m1/download/hardness-map.yaml`, text: HARDNESS_MAPPING_TEXT },
    { name: 'csvw-template-map.yaml', url: `${site}/m2/download/csvw-template-map.yaml`, text: seedMapping },
  ];
  const load = textLoader({ blobs, policy: policyFromEnv() });
  const settings = { siteUrl: baseUrl(), maxOutputBytes: maxOutputBytes() };
  /** describe's last output: its triples, data rows and Turtle bytes (for the write floor); the mapping convert ran. */
  const output = { triples: 0, rows: 0, bytes: 0, mapping: '' };
  const once = async (): Promise<Record<Step, number>> => {
    const times = {} as Record<Step, number>;
    let mark = performance.now();
    const lap = (step: Step) => {
      times[step] = performance.now() - mark;
      mark = performance.now();
    };
    const { descriptor: stored } = await annotateStep({ csv }, { blobs, ...settings });
    lap('annotate');
    const descriptor: ChainFile = {
      url: `${site}/r-desc/download/seed-like-metadata.jsonld`,
      blob: stored.blob,
      name: 'seed-like-metadata.jsonld',
    };
    const parsed: unknown = JSON.parse(await readText(blobs.open(descriptor.blob)));
    await importCsv(datastore, 'r-csv', parsed, { body: blobs.open(csv.blob) }, csv.url);
    lap('import');
    const described = await describeStep({ descriptor, csv }, { blobs, ...settings });
    lap('describe');
    output.triples = described.summary.triples ?? 0;
    output.rows = described.summary.rows ?? 0;
    output.bytes = blobs.size(described.turtle.blob);
    const { selection } = await selectMapping(
      { descriptor, library: mappings, strategy: 'exact' },
      { blobs },
    );
    lap('select-mapping');
    const mapping = mappings.find((m) => m.url === selection.selected?.url);
    if (!mapping) throw new Error(`no mapping selected: ${selection.reason}`);
    output.mapping = mapping.name;
    await convertStep({ descriptor, csv, mapping }, { blobs, ...settings, load });
    lap('convert');
    return times;
  };
  return { once, output, close: () => datastore.close() };
}

// ---- the runs ----

const mb = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 2 : 0)} MB`;
const ms = (t: number) => `${Math.round(t)} ms`;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const workDir = mkdtempSync(join(tmpdir(), 'labld-bench-chain-'));

async function small(): Promise<void> {
  const path = join(workDir, 'small.csv');
  const size = await generate(path, Number(values['small-mb']) * MB);
  const direct = await directSteps(path, join(workDir, 'domain'));
  const labld = await startChild(join(workDir, 'small-labld'));
  try {
    await library(labld, seedMapping);
    await action(labld, 'package_create', { name: 'bench' });
    const file = await openAsBlob(path);
    let uploads = 0;
    const viaChain = async () => {
      const start = performance.now();
      const startedAt = Date.now();
      const name = `seed-like-${++uploads}.csv`;
      const steps = await joined(labld, await upload(labld, 'bench', file, name), POLL_MS);
      const seen = performance.now() - start;
      const at = (step: Step, field: 'startedAt' | 'finishedAt') =>
        Date.parse(steps.find((s) => s.step === step)![field] as string);
      // The end as labld stamped it (same clock): not this client's next poll.
      const took = at('convert', 'finishedAt') - startedAt;
      // The same work on both sides: labld's library holds its starter mapping too.
      const converted = steps.find((s) => s.step === 'convert')!.summary.note as string;
      if (!converted.startsWith(`mapping ${JSON.stringify(direct.output.mapping)}`))
        throw new Error(
          `labld converted with another mapping (${converted}) than the domain functions (${direct.output.mapping})`,
        );
      const hops = {} as Record<Step, number>;
      let last = startedAt;
      for (const step of STEPS) {
        hops[step] = at(step, 'startedAt') - last;
        last = at(step, 'finishedAt');
      }
      return {
        took,
        seen,
        hops,
        steps: Object.fromEntries(
          steps.filter((s) => s.summary).map((s) => [s.step, s.summary.durationMs]),
        ) as Record<Step, number>,
        walls: Object.fromEntries(STEPS.map((s) => [s, at(s, 'finishedAt') - at(s, 'startedAt')])) as Record<
          Step,
          number
        >,
      };
    };
    // Untimed first: the worker threads start and compile on their first steps, and this
    // process reads the unit vocabulary and the template once.
    await direct.once();
    await viaChain();
    await viaChain();
    // Interleaved, so that load from other processes on the machine hits both alike.
    const chain: number[] = [];
    const seen: number[] = [];
    const hops: Record<Step, number>[] = [];
    const walls: Record<Step, number>[] = [];
    const inChain: Record<Step, number>[] = [];
    const domain: Record<Step, number>[] = [];
    const pairs: number[] = [];
    // CPU as well as wall time: on a machine others load, wall time is mostly the share of the
    // cores each side got. labld's counts every thread (the steps, validate, this client's polls).
    let directCpu = 0;
    const labldCpu = labld.cpuMs();
    for (let i = 0; i < runs; i++) {
      const cpu = process.cpuUsage();
      const times = await direct.once();
      const used = process.cpuUsage(cpu);
      directCpu += (used.user + used.system) / 1000;
      const run = await viaChain();
      domain.push(times);
      chain.push(run.took);
      seen.push(run.seen);
      hops.push(run.hops);
      walls.push(run.walls);
      inChain.push(run.steps);
      pairs.push(run.took / total(times));
    }
    const chainCpu = (labld.cpuMs() - labldCpu) / runs;
    directCpu /= runs;
    await direct.close();
    chain.sort((a, b) => a - b);
    const p50 = percentile(chain, 50);
    const sums = domain.map(total).sort((a, b) => a - b);
    const sum = percentile(sums, 50);
    const perStep = (list: Record<Step, number>[]) =>
      STEPS.map((step) => `${step} ${ms(median(list.map((t) => t[step])))}`).join(', ');
    console.log(
      `small: ${mb(size)} seed-like CSV, upload → joined graph through labld (embedded): p50 ${ms(p50)}, p99 ${ms(percentile(chain, 99))} over ${runs} runs (goal p50 ≤ 400 ms; to convert's finishedAt; seen by this client polling every ${POLL_MS} ms: p50 ${ms(median(seen))})`,
    );
    console.log(`small:   the steps inside the chain, p50 each: ${perStep(inChain)}`);
    console.log(
      `small:   each step's start to its end inside the chain (worker hand-off, reads and writes of the catalogue included), p50: ${perStep(walls)}`,
    );
    console.log(
      `small:   waits before each step (the upload's start, else the last step's end → its start: outbox, bus, pick-up), p50: ${perStep(hops)}`,
    );
    console.log(
      `small: the five steps' domain functions called directly, their sum: p50 ${ms(sum)}, p99 ${ms(percentile(sums, 99))} (both sides select and run ${direct.output.mapping})`,
    );
    console.log(`small:   each, p50: ${perStep(domain)}`);
    pairs.sort((a, b) => a - b);
    await describeFloor(path, direct.output, median(domain.map((t) => t.describe)));
    console.log(
      `small: ratio chain/domain ${(p50 / sum).toFixed(2)}x p50 vs p50, ${percentile(pairs, 50).toFixed(2)}x median of ${runs} interleaved pairs (goal ≤ 1.3x)`,
    );
    console.log(
      `small: CPU per upload, mean of the ${runs}: labld ${ms(chainCpu)} (every thread: the steps, validate, this client's polls), the domain functions called directly ${ms(directCpu)} (this process); ratio ${(chainCpu / directCpu).toFixed(2)}x`,
    );
  } finally {
    await labld.stop();
  }
}

/**
 * describe (its domain function, p50) against the write floor of the same file in this run:
 * read the CSV, write as many N-Triples-shaped lines as describe's triples and as many bytes
 * as its Turtle, no RDF logic (bench/floor.ts; best of two).
 */
async function describeFloor(
  path: string,
  output: { triples: number; rows: number; bytes: number },
  describeMs: number,
): Promise<void> {
  const out = join(workDir, 'floor.nt');
  const perRow = Math.max(1, Math.round(output.triples / output.rows));
  const lineBytes = Math.round(output.bytes / output.triples);
  const floorMs: number[] = [];
  for (let i = 0; i < 2; i++) {
    const start = performance.now();
    await writeFloor(path, out, perRow, lineBytes, 'latin1');
    floorMs.push(performance.now() - start);
  }
  rmSync(out, { force: true });
  const floor = Math.min(...floorMs);
  const rate = (ms: number) => Math.round(output.triples / (ms / 1000)).toLocaleString('en-US');
  console.log(
    `small: describe (domain, p50 ${ms(describeMs)}) ${rate(describeMs)} triples/s; write floor (read the CSV, ${perRow} lines of ${lineBytes} bytes per row, no RDF) ${ms(floor)}, ${rate(floor)} lines/s; ratio describe/floor ${(floor / describeMs).toFixed(2)}x (goal ≥ 0.5x)`,
  );
  console.log(
    'small: describe against rdf-tabular or Morph-KGC: not run — rdf-tabular is a Ruby gem (no RubyGems here) and Morph-KGC converts RML mappings, not a CSVW descriptor (bench/rml.ts runs it on RML)',
  );
}

/** Load with rows of the small file: triples per second of the load, labld's RSS meanwhile. */
async function rows(): Promise<void> {
  const path = join(workDir, 'rows.csv');
  const size = await generate(path, Number(values['small-mb']) * MB);
  const labld = await startChild(join(workDir, 'rows-labld'));
  try {
    await library(labld, seedMapping);
    await action(labld, 'package_create', { name: 'rows' });
    await joined(labld, await upload(labld, 'rows', await openAsBlob(path), 'rows.csv'), 50);
    const before = labld.rss();
    const pressed = performance.now();
    const { run } = await action(labld, 'triplestore_load', { id: 'rows', rows: true });
    let highest = before;
    const finished = async (): Promise<Dict> => {
      for (const end = Date.now() + 600_000; ;) {
        highest = Math.max(highest, labld.rss());
        const load = (await action(labld, 'labld_status_show', { id: 'rows' })).triplestore as Dict | null;
        if (load && load.run === run && load.state === 'done') return load;
        if (load && load.run === run && load.state === 'failed')
          throw new Error(`load failed: ${JSON.stringify(load)}`);
        if (Date.now() > end) throw new Error('the load with rows did not finish in 600 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const load = await finished();
    const wall = performance.now() - pressed;
    const { triples, durationMs, note } = load.summary as {
      triples: number;
      durationMs: number;
      note: string;
    };
    console.log(
      `rows: Load with rows of the ${mb(size)} seed-like CSV: ${triples} triples (${note}) in ${ms(durationMs)} ` +
        `(${Math.round(triples / (durationMs / 1000))} triples/s; ${ms(wall)} from the press to done); labld RSS ` +
        `before ${mb(before)}, highest sample during the load ${mb(highest)}, peak (VmHWM, chain included) ${mb(labld.peakRss())}`,
    );
  } finally {
    await labld.stop();
  }
}

async function large(): Promise<void> {
  const path = join(workDir, 'large.csv');
  const size = await generate(path, Number(values['large-mb']) * MB);
  const labld = await startChild(join(workDir, 'large-labld'));
  try {
    await library(labld, seedMapping);
    await action(labld, 'package_create', { name: 'large' });
    // labld's resident set, sampled at each poll, by the step running then (the upload: none yet).
    const byStep = new Map<string, number>();
    const sample = (steps: Dict[]) => {
      const running = steps.find((s) => s.state === 'running')?.step ?? 'between steps (queued)';
      byStep.set(running, Math.max(byStep.get(running) ?? 0, labld.rss()));
    };
    const idle = labld.rss();
    const start = performance.now();
    const id = await upload(labld, 'large', await openAsBlob(path), 'large.csv');
    const uploaded = performance.now() - start;
    byStep.set('up to the end of the upload', labld.peakRss());
    const steps = await joined(labld, id, 1000, sample);
    const total = performance.now() - start;
    const took = steps.map((s) => `${s.step} ${(s.summary.durationMs / 1000).toFixed(1)} s`).join(', ');
    console.log(
      `large: ${mb(size)} seed-like CSV, upload → joined graph in ${(total / 1000).toFixed(1)} s (upload ${(uploaded / 1000).toFixed(1)} s, ${took})`,
    );
    const rows = steps.find((s) => s.step === 'import')?.summary.rows as number;
    const triples = steps.find((s) => s.step === 'describe')?.summary.triples as number;
    console.log(`large: ${rows} rows imported, ${triples} triples in the Turtle`);
    const client = peakRssBytes();
    console.log(
      `large: peak RSS labld (pid ${labld.process.pid}, every gateway, consumer and worker thread) ${mb(labld.peakRss())}, this client (upload from disk, polling) ${mb(client)} (goal < 512 MB each)`,
    );
    const during = [...byStep].map(([step, rss]) => `${step} ${mb(rss)}`).join(', ');
    console.log(
      `large: labld's RSS idle before the upload ${mb(idle)}; highest sample (1/s) while each step ran: ${during}`,
    );
  } finally {
    await labld.stop();
  }
}

try {
  if (!values['skip-small']) await small();
  if (!values['skip-rows']) await rows();
  // The large file in a process of its own, so that this client's peak RSS is the uploader's.
  if (!values['skip-large'] && values['skip-small']) await large();
  else if (!values['skip-large']) {
    const args = [
      '--skip-small',
      '--skip-rows',
      '--large-mb',
      values['large-mb']!,
      ...(values.keep ? ['--keep'] : []),
    ];
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the large run exited with ${code}`);
  }
} finally {
  await files.stop();
  if (!values.keep) rmSync(workDir, { recursive: true, force: true });
}
