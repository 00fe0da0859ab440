// The store thread's entry. A worker thread has its own module loader, which bin/labld.js's
// compile cache does not reach: without it every thread start stripped and compiled the
// worker's TypeScript and sparqljs again (~0.1 s of CPU; the writer's thread starts again after
// each LABLD_WORKER_IDLE_MS idle). The cache is Node's default one, as for the main thread
// (NODE_DISABLE_COMPILE_CACHE=1 turns it off); the worker is imported once it is on.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./worker.ts');
