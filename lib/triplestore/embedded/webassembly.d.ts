// The part of the WebAssembly JS API the embedded triple store uses (oxigraph-module.ts):
// TypeScript declares it only in its DOM libraries, which labld does not load.
declare namespace WebAssembly {
  class Module {
    private readonly compiledModule: never;
  }
  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
}
