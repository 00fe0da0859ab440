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
 * glibc malloc's settings for a process whose threads come and go (operation workers, the
 * triple store's readers): freed memory given back to the system rather than kept for reuse.
 * - Its own default thresholds (128 KiB), made fixed. Left dynamic, glibc raises them after the
 *   first large block is freed (up to 32 MB to mmap, twice that to trim), and from then on large
 *   blocks (SQLite's page caches, file chunks, the workers' buffers) come from its arenas. Fixed,
 *   a block of 128 KiB or more is mapped on its own and unmapped when freed.
 * - Two arenas, not eight per core: each thread that allocates gets an arena of its own up to
 *   that count, and what an ended thread freed stayed resident in its arena (after the load
 *   bench, two 64 MB arenas 48–64 MB resident with every worker ended). After the load bench's
 *   drain, RSS was 24–25% above the start with the thresholds alone, 6% with two arenas too
 *   (docs/performance.md, issue 25).
 * glibc reads them at start only, hence the restart; other C libraries ignore them.
 */
export const MALLOC_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_ARENA_MAX: '2',
};

/**
 * The environment to run this process with so that glibc's malloc has MALLOC_SETTINGS, or
 * undefined when it has them already (each one an operator set wins) or is not on Linux.
 */
export function mallocEnv(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv | undefined {
  if (platform !== 'linux') return undefined;
  const missing = Object.entries(MALLOC_SETTINGS).filter(([name]) => env[name] === undefined);
  return missing.length === 0 ? undefined : { ...env, ...Object.fromEntries(missing) };
}

/**
 * Restarts this process in place (same pid, same stdio) with the semi-space setting when its
 * main thread lacks it, and with MALLOC_SETTINGS when its C library lacks them: V8 fixes the
 * main thread's heap limits at start, and glibc its malloc settings, so neither can be set
 * later. Returns when there is nothing to do, or where process.execve is missing.
 */
export function execWithMemorySettings(): void {
  const args = semiSpaceArgs(process.execArgv);
  const env = mallocEnv();
  if ((!args && !env) || typeof process.execve !== 'function') return;
  const argv = [process.execPath, ...(args ?? process.execArgv), ...process.argv.slice(1)];
  process.execve(process.execPath, argv, env ?? process.env);
}
