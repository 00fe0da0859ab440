// Mapper latency through HTTP (issue 6), warm, on the seed example: labld embedded in this
// process, the seed descriptor and template served by a local HTTP server. Prints p50/p99 of
//   floor      — GET /mapper/info: the same gateway → bus → consumer → reply round trip, no work
//   fetch      — GET of the descriptor straight from the file server (what each call fetches)
//   types, entities (descriptor; template with owl:NamedIndividual), mapping (request.json
//   without its misspelt entry)
// and each p50 as a ratio to the floor's p50. Usage: node bench/mapper.ts [--n 300] [--warm 50]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFileServer } from '../test/support/file-server.ts';
import { readSeed } from '../test/support/shared.ts';
import { percentile } from './percentile.ts';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '300' }, warm: { type: 'string', default: '50' } },
});
const runs = Number(values.n);
const warm = Number(values.warm);

process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
process.env['LABLD_LOG_LEVEL'] ??= 'silent';
// Imported after the settings above: the logger reads its level when it is loaded.
const { startEmbedded } = await import('../app/processes.ts');

const files = await startFileServer();
const dataUrl = files.put(
  '/examples/example-metadata.json',
  readSeed('csvtocsvw/example-metadata.json'),
  'application/json',
);
const templateUrl = files.put(
  '/methods/DIN_EN_ISO_527-3.drawio.ttl',
  readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl'),
  'text/turtle',
);

const dataDir = mkdtempSync(join(tmpdir(), 'labld-bench-mapper-'));
const labld = await startEmbedded({
  port: 0,
  bus: { transport: 'embedded', dataDir, topicsFile: 'topics.yaml' },
});
const mapper = `${labld.url}/mapper`;

const request = JSON.parse(readSeed('maptomethod/request.json')) as {
  map: Record<string, string>;
};
delete request.map['ExperimentTimeInterval'];
const mappingBody = JSON.stringify({ ...request, data_url: dataUrl, template_url: templateUrl });
const q = encodeURIComponent;

const cases: [string, () => Promise<Response>][] = [
  ['floor  GET /mapper/info', () => fetch(`${mapper}/info`)],
  ['fetch  GET descriptor from the file server', () => fetch(dataUrl)],
  ['GET /api/types (descriptor)', () => fetch(`${mapper}/api/types?url=${q(dataUrl)}`)],
  ['GET /api/entities (descriptor, default types)', () => fetch(`${mapper}/api/entities?url=${q(dataUrl)}`)],
  [
    'GET /api/entities (template, owl:NamedIndividual)',
    () =>
      fetch(
        `${mapper}/api/entities?url=${q(templateUrl)}&types=http://www.w3.org/2002/07/owl%23NamedIndividual`,
      ),
  ],
  [
    'POST /api/mapping (request.json, 7 rules)',
    () =>
      fetch(`${mapper}/api/mapping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: mappingBody,
      }),
  ],
];

async function measure(call: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warm + runs; i++) {
    const start = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    if (i >= warm) times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

try {
  console.log(
    `mapper latency through HTTP, embedded bus, warm (${warm} warm-up + ${runs} sequential requests each)`,
  );
  let floor = 0;
  for (const [name, call] of cases) {
    const times = await measure(call);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    if (floor === 0) floor = p50;
    console.log(
      `${name.padEnd(50)} p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${p99.toFixed(2).padStart(7)} ms  p50/floor ${(p50 / floor).toFixed(1).padStart(5)}x`,
    );
  }
} finally {
  await labld.stop();
  await files.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
