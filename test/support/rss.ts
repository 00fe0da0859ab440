// A process's resident set, read from /proc (Linux): now (VmRSS) or its peak (VmHWM).
//
// Why not getrusage's ru_maxrss (process.resourceUsage().maxRSS) for a process's own peak: a
// child is forked from its parent and its address space starts as a copy of the parent's, whose
// high-water mark exec then keeps. Measured: a child spawned by a Node process of 1,069 MB RSS
// reported a maxRSS of 1,029 MB; `bench:rml` printed 2,603 MB for `labld rml` after its parent
// had read Morph-KGC's 1.3 GB output. VmHWM is the mark of the memory mapped since the exec.
import { readFileSync } from 'node:fs';

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
