// oxigraph's WebAssembly, compiled once per process and given to every store thread (slot.ts).
// Compiled in each thread, as oxigraph's Node build does on import, a thread's first load paid
// again for the compilation and for V8's tier-up of the hot functions to optimized code (about
// 0.2 s of CPU for 1M triples, and baseline code until then), and the writer's thread is let go
// after LABLD_WORKER_IDLE_MS: in the product most loads ran on a fresh thread. A module handed
// to a thread shares its compiled code, what earlier threads tiered up included. Compiled at the
// first job, not when the store is opened: a process that never uses the store holds none of it
// (5-9 MB of RSS).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { count } from '../../process/counters.ts';

/** oxigraph's web build: the same code as its Node build, instantiated from a module given. */
const WASM = createRequire(import.meta.url).resolve('oxigraph/web_bg.wasm');

let compiled: Promise<WebAssembly.Module> | undefined;

/** The process's module (compiled off the main thread by V8); a failed compilation is tried again. */
export function oxigraphModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(WASM)
    .then((bytes) => {
      count('triplestore.compile');
      return WebAssembly.compile(bytes);
    })
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  return compiled;
}
