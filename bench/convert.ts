// Converter latency through the HTTP gateway (embedded bus), with floors measured in the same
// run on the same server:
//   createrdf  — POST /converter/api/createrdf on the seed (csvw-template-map.yaml, its
//                descriptor and template served by a local HTTP server), warm: p50 and p99;
//                floor: GET /converter/info (gateway + bus round trip, no work), and the
//                domain createRdf() in process with the files already in memory.
//   checkmapping — a library of 100 mappings (the seed's rules with other entity names, a
//                quarter of them matching) checked one after another against one descriptor,
//                as the catalogue's mapping selection does; floors: 100 GET /info, and the same
//                100 checks in process with the files in memory; and the HTTP checks 10 at a time.
// Usage: node bench/convert.ts [--runs 200]
import { parseArgs } from 'node:util';
import { benchLabld, percentile, time } from './support.ts';
import { checkMappingAt, createRdf, type Loader } from '../lib/converter/index.ts';
import { startFixtureServer } from '../test/converter/fixture-server.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);

process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
const files = await startFixtureServer();
const labld = await benchLabld();
const api = `${labld.url}/converter/api`;
const mappingUrl = files.url('/csvw-template-map.yaml');

async function ok(res: Response): Promise<void> {
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${res.status}: ${body.slice(0, 200)}`);
}

const info = await time(runs, async () => ok(await fetch(`${labld.url}/converter/info`)));
const createrdf = await time(runs, async () =>
  ok(await fetch(`${api}/createrdf?mapping_url=${encodeURIComponent(mappingUrl)}`, { method: 'POST' })),
);
const memory: Loader = async (url) => {
  const path = new URL(url).pathname;
  const text = files.get(path)?.body.toString('utf8');
  if (text === undefined) throw new Error(`no file ${url}`);
  return { url, text, fileName: path.split('/').pop() ?? '' };
};
const domain = await time(runs, async () => {
  await createRdf({ mappingUrl, activity: `${labld.url}/converter/api/createrdf` }, memory);
});

const line = (name: string, sorted: number[], floor: number[]) =>
  console.log(
    `${name.padEnd(34)} p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms  ` +
      `(${(percentile(sorted, 50) / percentile(floor, 50)).toFixed(1)}x GET /info p50)`,
  );
line('GET /converter/info (floor)', info, info);
line('createrdf seed, domain in process', domain, info);
line('createrdf seed, HTTP warm', createrdf, info);
console.log(
  `createrdf HTTP p50 / domain p50: ${(percentile(createrdf, 50) / percentile(domain, 50)).toFixed(2)}x (goal p50 <= 20 ms)`,
);

// The mapping library: 100 variants of the seed mapping, each rule renamed to another entity
// unless the variant is one of the matching quarter.
const seed = files.get('/csvw-template-map.yaml')!.body.toString('utf8');
const names = [
  'Standardkraft',
  'Standardweg',
  'aktuelle Probe',
  'Probenbreite b0',
  'Probendicke a0',
  'Vorkraft',
];
for (let i = 0; i < 100; i += 1) {
  let text = seed;
  if (i % 4 !== 0) for (const name of names) text = text.replace(`[str2, ${name}]`, `[str2, ${name} ${i}]`);
  files.put(`/library/map-${i}.yaml`, text);
}
const descriptorUrl = files.url('/examples/example-metadata.json');
const library = async () => {
  for (let i = 0; i < 100; i += 1) {
    const params = new URLSearchParams({
      mapping_url: files.url(`/library/map-${i}.yaml`),
      data_url: descriptorUrl,
    });
    await ok(await fetch(`${api}/checkmapping?${params}`, { method: 'POST' }));
  }
};
const infos100 = async () => {
  for (let i = 0; i < 100; i += 1) await ok(await fetch(`${labld.url}/converter/info`));
};
const libraryInProcess = async () => {
  for (let i = 0; i < 100; i += 1) {
    await checkMappingAt({ mappingUrl: files.url(`/library/map-${i}.yaml`), dataUrl: descriptorUrl }, memory);
  }
};
/** The same 100 checks with 10 in flight (a catalogue may ask concurrently). */
const libraryConcurrent = async () => {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < 100; i = next++) {
      const params = new URLSearchParams({
        mapping_url: files.url(`/library/map-${i}.yaml`),
        data_url: descriptorUrl,
      });
      await ok(await fetch(`${api}/checkmapping?${params}`, { method: 'POST' }));
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
};
const check = await time(5, library);
const checkConcurrent = await time(5, libraryConcurrent);
const checkDomain = await time(5, libraryInProcess);
const floor100 = await time(5, infos100);
console.log(
  `checkmapping 100 mappings x 1 descriptor  total ${percentile(check, 50).toFixed(1)} ms (median of 5)  ` +
    `floor 100 x GET /info ${percentile(floor100, 50).toFixed(1)} ms  ${(percentile(check, 50) / percentile(floor100, 50)).toFixed(1)}x (goal <= 200 ms)`,
);

console.log(
  `checkmapping 100 mappings, HTTP, 10 in flight   total ${percentile(checkConcurrent, 50).toFixed(1)} ms (median of 5)  ` +
    `${(percentile(checkConcurrent, 50) / percentile(floor100, 50)).toFixed(1)}x floor`,
);
console.log(
  `checkmapping 100 mappings, domain in process     total ${percentile(checkDomain, 50).toFixed(1)} ms (median of 5)  ` +
    `HTTP / domain ${(percentile(check, 50) / percentile(checkDomain, 50)).toFixed(1)}x (each HTTP check fetches mapping and descriptor)`,
);

await labld.stop();
await files.stop();
