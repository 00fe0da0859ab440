// A process that grows a WebAssembly memory the way oxigraph's does while loading (many 64 KiB
// steps) and prints how many mark-compacts that started: heap.test.ts. Argument: `flag` to
// ask for the flag first, anything else for V8's default.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { countExternalMemoryInHeapLimit } from '../../lib/triplestore/embedded/heap.ts';

if (process.argv[2] === 'flag') countExternalMemoryInHeapLimit();
let majors = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as unknown as { detail?: { kind?: number } };
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
  }
});
observer.observe({ entryTypes: ['gc'] });
// The WebAssembly global, typed here: the project's TypeScript libraries do not declare it.
const { Memory } = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly;
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
const memory = new Memory({ initial: 1, maximum: 65536 });
for (let i = 0; i < 2000; i++) {
  memory.grow(1);
  new Uint8Array(memory.buffer)[memory.buffer.byteLength - 1] = 1;
}
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
process.stdout.write(`${majors}\n`);
