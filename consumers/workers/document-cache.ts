// The in-process document cache is one per process, not one per worker: it lives on the main
// thread, and each worker reaches it through its port. So an embedded labld fetches a template
// once for all its workers, as a deployment on Redis does for all its processes.
import type { MessagePort, Worker } from 'node:worker_threads';
import type { CachedDocument, DocumentCache, DocumentCacheLimits } from '../../lib/shared/contract.ts';

type Method = 'get' | 'put' | 'refresh' | 'delete';

/** A worker asks the main thread's cache. */
export interface CacheCall {
  type: 'cache';
  id: number;
  method: Method;
  args: unknown[];
}

/** The main thread answers. */
export interface CacheReply {
  type: 'cache-reply';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** Structured clone turns a Buffer into a plain Uint8Array; the cache's users read Buffers. */
function revive(document: CachedDocument | undefined): CachedDocument | undefined {
  if (!document) return undefined;
  const { body } = document;
  return { ...document, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
}

/** Answers `worker`'s cache calls from `cache`. */
export function answerCacheCall(worker: Worker, cache: DocumentCache, call: CacheCall): void {
  const [key, second] = call.args as [string, unknown];
  const work =
    call.method === 'get'
      ? cache.get(key)
      : call.method === 'put'
        ? cache.put(key, revive(second as CachedDocument)!)
        : call.method === 'refresh'
          ? cache.refresh(key, second as number)
          : cache.delete(key);
  const reply = (answer: CacheReply) => {
    try {
      worker.postMessage(answer);
    } catch {
      // The worker ended meanwhile: nobody waits for the answer.
    }
  };
  work.then(
    (value) => reply({ type: 'cache-reply', id: call.id, ok: true, value }),
    (error: unknown) => reply({ type: 'cache-reply', id: call.id, ok: false, error: String(error) }),
  );
}

/** A worker's view of the main thread's cache. */
export class PortDocumentCache implements DocumentCache {
  readonly limits: DocumentCacheLimits;
  readonly #port: MessagePort;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #next = 1;

  constructor(port: MessagePort, limits: DocumentCacheLimits) {
    this.#port = port;
    this.limits = limits;
  }

  /** Settles the call `reply` answers; the worker's message handler hands every reply here. */
  receive(reply: CacheReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new Error(reply.error ?? 'the document cache failed'));
  }

  #call(method: Method, args: unknown[]): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#port.postMessage({ type: 'cache', id, method, args } satisfies CacheCall);
    });
  }

  async get(key: string): Promise<CachedDocument | undefined> {
    return revive((await this.#call('get', [key])) as CachedDocument | undefined);
  }

  async put(key: string, document: CachedDocument): Promise<void> {
    await this.#call('put', [key, document]);
  }

  async refresh(key: string, freshUntil: number): Promise<void> {
    await this.#call('refresh', [key, freshUntil]);
  }

  async delete(key: string): Promise<void> {
    await this.#call('delete', [key]);
  }
}
