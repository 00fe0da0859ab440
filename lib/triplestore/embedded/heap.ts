// oxigraph's WASM memory grows in many small steps while a graph loads (hundreds for 1M
// triples). V8 before 14.8 counts each grown memory's whole buffer as newly allocated external
// memory and starts a mark-compact for nearly every step: half the CPU time of a fresh load.
// V8 14.8 made counting external memory within the heap's global limit its default (and dropped
// the flag); on the V8 versions that have the flag, the embedded store asks for it.
import { setFlagsFromString } from 'node:v8';

export const EXTERNAL_MEMORY_FLAG = '--external-memory-accounted-in-global-limit';

/** Whether V8 `version` (process.versions.v8) has the flag and needs it: 13.0 up to, not including, 14.8. */
export function needsExternalMemoryFlag(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major === 13 || (major === 14 && minor < 8);
}

/**
 * Sets the flag where it helps. It is process-wide (V8 flags are), which for the other
 * threads only means garbage collections started by buffers follow the heap's limit, as they
 * do by default on later V8. Returns whether it was set.
 */
export function countExternalMemoryInHeapLimit(version = process.versions.v8): boolean {
  if (!needsExternalMemoryFlag(version)) return false;
  setFlagsFromString(EXTERNAL_MEMORY_FLAG);
  return true;
}
