// Builds labld's hand-written WebAssembly: each .wat source below into the .wasm beside it,
// with wabt (a dev dependency, pinned: the same version writes the same bytes). Run after
// changing a .wat: `npm run build:wasm`; test/annotator/quiet-kernel.test.ts checks that the
// committed .wasm is what its source builds to.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

export const WASM_SOURCES = [new URL('../lib/annotator/quiet-rows.wat', import.meta.url)];

/** The binary of one .wat source (SIMD on, no debug names). */
export async function buildWasm(source: URL): Promise<Uint8Array> {
  const tools = await wabt();
  const module = tools.parseWat(fileURLToPath(source), readFileSync(source, 'utf8'), { simd: true });
  try {
    module.validate();
    return module.toBinary({ canonicalize_lebs: true, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

/** The .wasm beside a .wat source. */
export function wasmOf(source: URL): URL {
  return new URL(source.href.replace(/\.wat$/, '.wasm'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const source of WASM_SOURCES) writeFileSync(wasmOf(source), await buildWasm(source));
}
