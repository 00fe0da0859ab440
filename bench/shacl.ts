// SHACL engines on the W3C core suite: how many tests each passes and how long the whole
// suite takes (best of 5 warm rounds), shacl-engine as the floor. The converter's choice of
// engine rests on these numbers (README, dependency table).
import { loadSuite, passes, SHACL_ENGINES, type ShaclEngine } from '../test/converter/shacl-suite.ts';

const suite = loadSuite('core');
const ENGINES = Object.keys(SHACL_ENGINES) as ShaclEngine[];

async function round(engine: ShaclEngine): Promise<{ passed: number; ms: number }> {
  let passed = 0;
  const start = performance.now();
  for (const test of suite) {
    let outcome;
    try {
      outcome = await SHACL_ENGINES[engine](test.shapes, test.data);
    } catch (error) {
      outcome = error as Error;
    }
    if (passes(test, outcome)) passed += 1;
  }
  return { passed, ms: performance.now() - start };
}

const results = new Map<ShaclEngine, { passed: number; ms: number }>();
for (const engine of ENGINES) {
  await round(engine); // warm-up
  let best = Infinity;
  let passed = 0;
  for (let i = 0; i < 5; i += 1) {
    const r = await round(engine);
    best = Math.min(best, r.ms);
    passed = r.passed;
  }
  results.set(engine, { passed, ms: best });
}
const floor = results.get('shacl-engine')!.ms;
for (const [engine, r] of results) {
  console.log(
    `shacl ${engine.padEnd(18)} W3C core ${r.passed}/${suite.length} passed, suite ${r.ms.toFixed(1)} ms, ${(r.ms / floor).toFixed(2)}x shacl-engine`,
  );
}
