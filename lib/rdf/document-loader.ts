// JSON-LD document loader that never touches the network: contexts we rely on are bundled in
// ./contexts/ and served by URL; any other URL is the client's problem (422), because a
// remote context would be a server-side fetch the client controls.
import { readFileSync } from 'node:fs';
import jsonld from 'jsonld';
import type { RemoteDocument } from 'jsonld/jsonld-spec.js';
import { DomainError, invalid } from '../process/errors.ts';

// Context URL (without fragment) → file in ./contexts/.
const CONTEXT_FILES: ReadonlyMap<string, string> = new Map([
  ['http://www.w3.org/ns/csvw', 'csvw.jsonld'],
  ['https://www.w3.org/ns/csvw', 'csvw.jsonld'],
  ['http://www.w3.org/ns/csvw.jsonld', 'csvw.jsonld'],
  ['https://www.w3.org/ns/csvw.jsonld', 'csvw.jsonld'],
]);

/** The context URLs served from the bundle. */
export const BUNDLED_CONTEXT_URLS: readonly string[] = Object.freeze([...CONTEXT_FILES.keys()]);

const parsed = new Map<string, RemoteDocument['document']>();

function bundled(file: string): RemoteDocument['document'] {
  let document = parsed.get(file);
  if (document === undefined) {
    document = JSON.parse(
      readFileSync(new URL(`./contexts/${file}`, import.meta.url), 'utf8'),
    ) as RemoteDocument['document'];
    parsed.set(file, document);
  }
  // A copy, so no caller can alter what the next one gets.
  return structuredClone(document);
}

function fileFor(url: string): string | undefined {
  return CONTEXT_FILES.get(url.split('#')[0] ?? url);
}

function refusal(url: string): DomainError {
  return invalid(
    `JSON-LD context ${url} is not allowed: remote contexts are never fetched; ` +
      `bundled contexts are ${BUNDLED_CONTEXT_URLS.join(', ')}`,
  );
}

/** jsonld `documentLoader`: bundled contexts only. */
export async function documentLoader(url: string): Promise<RemoteDocument> {
  const file = fileFor(url);
  if (file === undefined) throw refusal(url);
  return { contextUrl: undefined, documentUrl: url, document: bundled(file) };
}

/** The refusal behind a jsonld error, if documentLoader refused a context. */
export function loaderRefusal(error: unknown): DomainError | undefined {
  // jsonld wraps loader failures as `details.cause`, possibly more than once; for scoped
  // contexts it drops the cause but keeps the context URL in `details.context`.
  for (let e: unknown = error, depth = 0; e && depth < 10; depth++) {
    if (e instanceof DomainError) return e;
    const details = (e as { details?: { cause?: unknown; context?: unknown } }).details;
    if (typeof details?.context === 'string' && fileFor(details.context) === undefined)
      return refusal(details.context);
    e = details?.cause ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}

// Also the process-wide default, so a jsonld call that forgets the option cannot fetch.
(jsonld as unknown as { documentLoader: typeof documentLoader }).documentLoader = documentLoader;
