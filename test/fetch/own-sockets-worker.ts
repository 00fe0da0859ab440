// The worker side of own-sockets.test.ts: asks, from a worker thread, whether labld's port is its own.
import { parentPort, workerData } from 'node:worker_threads';
import { guardedFetch, makePolicy } from '../../lib/fetch/guarded-fetch.ts';
import { isOwnAddress } from '../../lib/fetch/own-address.ts';
import { DomainError } from '../../lib/process/errors.ts';

const { port } = workerData as { port: number };
const policy = makePolicy({ allow: '127.0.0.0/8', timeoutMs: 5000 });
let refused: string | undefined;
try {
  const fetched = await guardedFetch(`http://127.0.0.1:${port}/metrics`, { field: 'url', policy });
  await fetched.bytes();
} catch (error) {
  refused = error instanceof DomainError ? error.kind : String(error);
}
parentPort!.postMessage({ own: isOwnAddress('127.0.0.1', port), refused });
