// A process's resident set and CPU time, read from /proc (Linux): RSS now (VmRSS) or its peak (VmHWM).
//
// Why not getrusage's ru_maxrss (process.resourceUsage().maxRSS) for a process's own peak: a
// child is forked from its parent and its address space starts as a copy of the parent's, whose
// high-water mark exec then keeps. Measured: a child spawned by a Node process of 1,069 MB RSS
// reported a maxRSS of 1,029 MB; `bench:rml` printed 2,603 MB for `labld rml` after its parent
// had read Morph-KGC's 1.3 GB output. VmHWM is the mark of the memory mapped since the exec.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticks: number | undefined;

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK, read once). */
export function clockTicks(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  return ticks;
}

/**
 * User and system CPU seconds in a /proc `stat` file (a process's, every thread; or one task's
 * under /proc/<pid>/task); 0 once it is gone.
 */
export function cpuSecondsOf(statPath: string): number {
  let stat: string;
  try {
    stat = readFileSync(statPath, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime is 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** A process's resident set now (VmRSS) or at its peak so far (VmHWM), in bytes; 0 if it is gone. */
export function rssOf(pid: number, which: 'VmRSS' | 'VmHWM'): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 0;
  }
  return Number(new RegExp(`${which}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

/** This process's peak resident set since it started, in bytes (getrusage's where /proc is missing). */
export function peakRssBytes(): number {
  return rssOf(process.pid, 'VmHWM') || process.resourceUsage().maxRSS * 1024;
}
