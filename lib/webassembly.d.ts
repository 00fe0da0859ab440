// The part of the WebAssembly JS API labld uses (oxigraph's module in the triple store,
// annotate's quiet-row kernel): TypeScript declares it only in its DOM libraries, which labld
// does not load.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
    private readonly compiledModule: never;
  }
  class Instance {
    constructor(module: Module);
    readonly exports: unknown;
  }
  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
}
