// V8's new space per thread. By default V8 lets each thread's semi-spaces grow to 32 MB each,
// and keeps them: measured, labld's all-in-one process idled at 415 MB, of which about 60 MB
// per thread (main and each worker) was new space that startup alone had grown. The chain's
// steps allocate short-lived objects at a high rate (describe: ~600,000 quads per MB of CSV),
// and pay for the smaller new space in garbage collection: describe took about 1.5× the CPU
// at 4 MB as at V8's own sizing, and the seed chain ran 32–68% faster with 0 (bench/scale.ts,
// README). 4 stays the default because it is what keeps a process of every gateway, consumer
// and worker under 512 MB through a 1 GB CSV (bench/chain.ts); 0 is the setting for throughput.
// Measured again once describe wrote Turtle without quads (issue 29): describe alone is flat in
// memory (188 MB for a 100 MB CSV at 4, 172 MB at 16), but labld at 16 peaked at 499 MB through
// a 100 MB CSV (the import's step the highest), so 4 stays (docs/configuration.md).
import { intSetting } from './config.ts';

const FLAG = '--max-semi-space-size';

/** LABLD_SEMI_SPACE_MB, or undefined for V8's own sizing (0). */
export function semiSpaceMb(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return intSetting('LABLD_SEMI_SPACE_MB', env) || undefined;
}

/**
 * A worker's `resourceLimits.maxYoungGenerationSizeMb` for a semi-space size (0: V8's own): V8's
 * young generation is three semi-spaces (the two copied between and one for large new objects).
 */
export function youngGenerationMb(semiMb: number = intSetting('LABLD_SEMI_SPACE_MB')): number | undefined {
  return semiMb > 0 ? semiMb * 3 : undefined;
}

/**
 * The Node options to run this process with so that its main thread has the semi-space
 * setting, or undefined when it has it already: given on the command line or NODE_OPTIONS
 * (an operator's own choice wins), or left to V8.
 */
export function semiSpaceArgs(
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string[] | undefined {
  const semi = semiSpaceMb(env);
  if (semi === undefined) return undefined;
  const given = (arg: string) => arg === FLAG || arg.startsWith(`${FLAG}=`);
  if (execArgv.some(given) || (env['NODE_OPTIONS'] ?? '').split(/\s+/).some(given)) return undefined;
  return [`${FLAG}=${semi}`, ...execArgv];
}

/**
 * Restarts this process in place (same pid, same stdio) with the semi-space setting when its
 * main thread lacks it: V8 fixes the main thread's heap limits at start, so a flag set later
 * does not bound them. Returns when there is nothing to do, or where process.execve is missing.
 */
export function execWithSemiSpace(): void {
  const args = semiSpaceArgs(process.execArgv);
  if (!args || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...args, ...process.argv.slice(1)], process.env);
}
