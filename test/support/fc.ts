// fast-check for every property test. CI runs one fixed seed, so that what landed is what was
// run before it landed; LABLD_PROPERTY_SEED picks a seed anywhere, and without either each run
// draws a new one (fast-check prints it with any counterexample, to run that case again).
import fc from 'fast-check';

const seed = process.env.LABLD_PROPERTY_SEED ?? (process.env.CI ? '20261128' : undefined);
if (seed !== undefined) {
  if (!/^-?\d+$/.test(seed)) throw new Error(`LABLD_PROPERTY_SEED must be an integer, not ${seed}`);
  fc.configureGlobal({ seed: Number(seed) });
}

export default fc;
