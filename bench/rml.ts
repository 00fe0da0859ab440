// RML engine benchmark (issues 5, 29). Prints, from one run on this machine:
//  1. KROWN-shaped CSV (`id,p1..p20`, values `V_<col>-<row>`, the KGCW "records" case) through a
//     20-predicate mapping to N-Triples on disk: labld's triples/s and peak RSS and Morph-KGC's
//     on the same files, interleaved (labld, Morph-KGC, labld, … `pairs` each, so that the
//     machine's load hits both alike), each pair's ratio and their min / median (goal: ≥ 10×
//     Morph-KGC in every pair, at ≤ 0.5 GB);
//  2. the same mapping run 5 times in this one process (as the converter service runs its
//     requests): every run's time and the later runs' median over the first;
//  3. the seed's conditional CSVW mapping over the tensile-test descriptor: warm p50/p99 per
//     execution (goal ≤ 5 ms).
// Run: node bench/rml.ts [rows=1000000] [pairs=3]. Morph-KGC: the Python used is
// $MORPH_KGC_PYTHON, else the venv /tmp/labld-morphvenv (made, with `pip install morph-kgc`,
// when missing).
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
  createWriteStream,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRssBytes } from '../test/support/rss.ts';
import { venvPython } from './venv.ts';

const COLUMNS = 20;

function generateCsv(path: string, rows: number): void {
  const fd = openSync(path, 'w');
  let chunk = `id,${Array.from({ length: COLUMNS }, (_, i) => `p${i + 1}`).join(',')}\n`;
  for (let row = 0; row < rows; row += 1) {
    let line = String(row);
    for (let col = 1; col <= COLUMNS; col += 1) line += `,V_${col}-${row}`;
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

/** The KROWN raw mapping: one triples map, 20 predicate-object maps (legacy RML, as Morph-KGC reads). */
function krownMapping(csvName: string): string {
  const poms = Array.from(
    { length: COLUMNS },
    (_, i) =>
      `  rr:predicateObjectMap [ rr:predicate ex:p${i + 1}; rr:objectMap [ rml:reference "p${i + 1}" ] ]`,
  );
  return `@prefix rr: <http://www.w3.org/ns/r2rml#> .
@prefix rml: <http://semweb.mmlab.be/ns/rml#> .
@prefix ql: <http://semweb.mmlab.be/ns/ql#> .
@prefix ex: <http://example.com/> .
<http://example.com/base/TriplesMap1> a rr:TriplesMap;
  rml:logicalSource [ rml:source "${csvName}"; rml:referenceFormulation ql:CSV ];
  rr:subjectMap [ rr:template "http://example.com/{id}" ];
${poms.join(';\n')} .
`;
}

/**
 * Child mode: `labld rml MAPPING --out FILE --format nt --quiet` as bin/labld.js runs it (its
 * imports and start-up included), alone so that its peak RSS is its own.
 */
async function child(mappingPath: string, outPath: string): Promise<void> {
  const start = performance.now();
  const bin = fileURLToPath(new URL('../bin/labld.js', import.meta.url));
  process.argv = [process.execPath, bin, 'rml', mappingPath, '--out', outPath, '--format', 'nt', '--quiet'];
  await import(bin);
  const seconds = (performance.now() - start) / 1000;
  // The whole process's CPU, start-up included, as Morph-KGC's.
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: peakRssBytes() / 2 ** 20, cpuSeconds }));
}

interface Measurement {
  seconds: number;
  maxRssMb: number;
  /** CPU time (user + system) of the run's process: far less disturbed than wall time by other processes. */
  cpuSeconds: number;
  triples?: number;
}

function runLabld(mappingPath: string, outPath: string): Measurement {
  const start = performance.now();
  // labld keeps its stripped TypeScript in Node's compile cache (bin/labld.js); the child's own
  // file (this one) uses the same cache, so that it costs what a start of bin/labld.js costs.
  const cache = process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache');
  const run = spawnSync(process.execPath, [import.meta.filename, '--child', mappingPath, outPath], {
    encoding: 'utf8',
    env: { ...process.env, LABLD_LOG_LEVEL: 'silent', NODE_COMPILE_CACHE: cache },
  });
  if (run.status !== 0) throw new Error(`labld run failed: ${run.stderr}`);
  // Wall time of the whole process (start-up included), as for Morph-KGC.
  return { ...(JSON.parse(run.stdout) as Measurement), seconds: (performance.now() - start) / 1000 };
}

/** Morph-KGC in a Python that reports its own wall time and peak RSS (its children's too, when it has any). */
function runMorphKgc(python: string, mappingPath: string, outPath: string, dir: string): Measurement {
  const config = join(dir, 'morph-kgc.ini');
  writeFileSync(
    config,
    `[CONFIGURATION]\noutput_file=${outPath}\noutput_format=N-TRIPLES\nnumber_of_processes=1\n[DataSource1]\nmappings=${mappingPath}\n`,
  );
  const script = [
    'import resource, sys, time, runpy',
    `sys.argv = ['morph_kgc', ${JSON.stringify(config)}]`,
    't = time.time()',
    "runpy.run_module('morph_kgc', run_name='__main__')",
    's, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)',
    // Its own peak from /proc, not ru_maxrss (test/support/rss.ts: a child's starts at its parent's).
    "peak = int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')))",
    "print('BENCH', time.time() - t, max(peak, c.ru_maxrss) / 1024, s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime)",
  ].join('\n');
  const start = performance.now();
  const run = spawnSync(python, ['-c', script], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - start) / 1000;
  const line = /BENCH (\S+) (\S+) (\S+)/.exec(run.stdout ?? '');
  if (run.status !== 0 || !line) {
    throw new Error(
      `Morph-KGC did not run (${python}): ${(run.stderr || run.error?.message || '').trim().split('\n').pop()}`,
    );
  }
  return { seconds, maxRssMb: Number(line[2]), cpuSeconds: Number(line[3]) };
}

/** Lines of a file, read 1 MB at a time: a whole 1.3 GB output read at once stays in this process's RSS. */
function lineCount(path: string): number {
  const fd = openSync(path, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let count = 0;
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk))
      for (let i = chunk.indexOf(10); i >= 0 && i < n; i = chunk.indexOf(10, i + 1)) count += 1;
  } finally {
    closeSync(fd);
  }
  return count;
}

async function seedLatency(): Promise<void> {
  // Imported here, not at the top: the child (this file with --child) loads only what `labld rml` needs.
  const { executeMapping, NQuadsCollector } = await import('../lib/rml/index.ts');
  const { readYarrrml, yarrrmlToMapping } = await import('../lib/rml/yarrrml.ts');
  const shared = process.env['LABLD_SHARED_DIR'] ?? new URL('../../shared/', import.meta.url).pathname;
  const seed = `${shared.replace(/\/?$/, '/')}fixtures/seed-examples/`;
  const descriptor = readFileSync(`${seed}csvtocsvw/example-metadata.json`, 'utf8');
  const yarrrml = readYarrrml(readFileSync(`${seed}rdfconverter/csvw-template-map.yaml`, 'utf8'));
  const translateStart = performance.now();
  const mapping = yarrrmlToMapping(yarrrml);
  const translateMs = performance.now() - translateStart;
  const url = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-metadata.json';
  const times: number[] = [];
  for (let i = 0; i < 2200; i += 1) {
    const start = performance.now();
    const sink = new NQuadsCollector();
    await executeMapping(mapping, sink, { sources: { [url]: descriptor } });
    if (i >= 200) times.push(performance.now() - start); // the first 200 warm up the JIT
  }
  times.sort((a, b) => a - b);
  const at = (p: number) =>
    times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(2);
  console.log(
    `seed csvw-template-map (${mapping.triplesMaps.length} conditional rules, tensile-test descriptor): ` +
      `warm p50 ${at(50)} ms, p99 ${at(99)} ms per execution (goal ≤ 5 ms); YARRRML→RML once ${translateMs.toFixed(1)} ms` +
      ` [machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}]`,
  );
}

/**
 * The same mapping run again and again in one process, as the converter service runs its
 * requests: each run should cost what the first does (a parser's loop once ran 3× slower in
 * every run after a process's first).
 */
async function sameProcess(mappingPath: string, rows: number, runs = 5): Promise<void> {
  // Imported here: the child runs (bench/rml.ts --child) load the engine as `labld rml` does.
  const { runMappingFile } = await import('../lib/rml/run-file.ts');
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await runMappingFile(mappingPath, createWriteStream('/dev/null'), { format: 'nt' });
    times.push((performance.now() - start) / 1000);
  }
  const later = times.slice(1).sort((a, b) => a - b);
  console.log(
    `one process: ${runs} runs of ${rows} rows into /dev/null: ${times.map((t) => t.toFixed(2)).join(', ')} s; later runs / first (median) ${(later[Math.floor(later.length / 2)]! / times[0]!).toFixed(2)}×`,
  );
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const pairs = Number(process.argv[3] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-rml-'));
  try {
    const csv = join(dir, 'data.csv');
    generateCsv(csv, rows);
    const mappingPath = join(dir, 'mapping.ttl');
    writeFileSync(mappingPath, krownMapping('data.csv'));
    console.log(
      `KROWN records: ${rows} rows × ${COLUMNS} columns, ${(statSync(csv).size / 1e6).toFixed(0)} MB CSV` +
        ` [machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}]`,
    );

    const python = process.env.MORPH_KGC_PYTHON ?? venvPython('morph', 'morph-kgc', 'morph_kgc');
    const ratios: number[] = [];
    // Both sides start warm: Morph-KGC's bytecode was compiled at install, labld's compile cache
    // is written by its first start after a change (this unmeasured run).
    runLabld(mappingPath, join(dir, 'labld.nt'));
    for (let i = 1; i <= pairs; i += 1) {
      const ours = runLabld(mappingPath, join(dir, 'labld.nt'));
      ours.triples = lineCount(join(dir, 'labld.nt'));
      console.log(
        `${i} labld:     ${ours.seconds.toFixed(1)} s, ${Math.round(ours.triples / ours.seconds).toLocaleString('en')} triples/s, CPU ${ours.cpuSeconds.toFixed(1)} s, peak RSS ${ours.maxRssMb.toFixed(0)} MB (${ours.triples} triples)`,
      );
      rmSync(join(dir, 'labld.nt'));
      const morph = runMorphKgc(python, mappingPath, join(dir, 'morph.nt'), dir);
      const triples = lineCount(join(dir, 'morph.nt'));
      rmSync(join(dir, 'morph.nt'));
      if (triples !== ours.triples)
        throw new Error(`Morph-KGC wrote ${triples} triples, labld ${ours.triples}`);
      ratios.push(morph.seconds / ours.seconds);
      console.log(
        `${i} Morph-KGC: ${morph.seconds.toFixed(1)} s, ${Math.round(triples / morph.seconds).toLocaleString('en')} triples/s, CPU ${morph.cpuSeconds.toFixed(1)} s, peak RSS ${morph.maxRssMb.toFixed(0)} MB; ` +
          `ratio ${ratios.at(-1)!.toFixed(2)}× (by CPU ${(morph.cpuSeconds / ours.cpuSeconds).toFixed(2)}×) [load average ${loadavg()[0]!.toFixed(1)}]`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `ratio:     labld is ${sorted[0]!.toFixed(2)}× (min), ${sorted[Math.floor(pairs / 2)]!.toFixed(2)}× (median) Morph-KGC's speed over ${pairs} interleaved pairs ` +
        `(${ratios.map((r) => r.toFixed(2)).join(', ')}; goal ≥ 10× in every pair)`,
    );
    await sameProcess(mappingPath, rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await seedLatency();
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
else await main();
