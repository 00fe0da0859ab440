// Public types of the CSVW → RDF converter and the two error kinds it raises: a broken
// metadata document (field metadata_url) and an unreadable or broken CSV (field csv_url).
import { TextDecoder } from 'node:util';
import iconv from 'iconv-lite';
import { DomainError, TimeoutError, invalid } from '../process/errors.ts';

import type { LoadedResource, ResourceLoader } from '../loader.ts';
export type { LoadedResource, ResourceLoader };

export type Mode = 'standard' | 'minimal';

export interface CsvwInput {
  /** A metadata document (table group or table description) to start from. */
  metadataUrl?: string;
  /** The metadata document itself (parsed JSON); `metadataUrl` is then its base URL. */
  metadata?: unknown;
  /** A CSV file to start from; with metadata, user metadata overriding discovery. */
  csvUrl?: string;
}

export interface CsvwOptions {
  load: ResourceLoader;
  mode?: Mode;
  /** Called for every warning (they are also returned). */
  onWarning?: (message: string) => void;
  /** Request field named by metadata errors; default metadata_url. */
  metadataField?: string;
  /** Request field named by CSV errors; default csv_url. */
  csvField?: string;
}

export const METADATA_FIELD = 'metadata_url';
export const CSV_FIELD = 'csv_url';

/** An error in a metadata document: the conversion stops (CSVW "raise an error"). */
export function metadataError(detail: string, field = METADATA_FIELD): DomainError {
  return invalid(`${field}: invalid CSVW metadata: ${detail}`, field);
}

/**
 * Loads a URL through the injected loader. DomainErrors and time-outs pass as they are;
 * anything else a loader throws becomes a 422 naming the field, never a crash.
 */
export async function loadResource(
  load: ResourceLoader,
  url: string,
  field: string,
): Promise<LoadedResource> {
  try {
    return await load(url, field);
  } catch (error) {
    throw readError(error, url, field);
  }
}

/** A resource that failed to load or broke off while streaming: a 422 naming the field. */
export function readError(error: unknown, url: string, field: string): unknown {
  if (error instanceof DomainError || error instanceof TimeoutError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return invalid(`${field}: cannot read ${url}: ${message}`, field);
}

/** The whole body of a loaded resource as text. */
export async function resourceText(resource: LoadedResource, encoding = 'utf-8'): Promise<string> {
  if (resource.text !== undefined) return resource.text;
  let text = '';
  for await (const chunk of textChunks(resource, encoding)) text += chunk;
  return text;
}

/** The body as decoded text chunks (streams stay streams). */
export async function* textChunks(resource: LoadedResource, encoding = 'utf-8'): AsyncGenerator<string> {
  if (resource.text !== undefined) {
    yield resource.text;
    return;
  }
  if (!resource.body) return;
  const decoder = decoderFor(encoding);
  for await (const chunk of resource.body) {
    yield typeof chunk === 'string' ? chunk : decoder.write(chunk);
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * A streaming decoder in replacement mode, as the CSVW parsing algorithm asks: the WHATWG
 * label first, then iconv-lite for names WHATWG lacks (the annotator writes `mac-roman`,
 * `mac-cyrillic`), else UTF-8.
 */
function decoderFor(encoding: string): { write(bytes: Uint8Array): string; end(): string } {
  try {
    const decoder = new TextDecoder(encoding, { fatal: false });
    return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
  } catch {
    const name = iconv.encodingExists(encoding) ? encoding : 'utf-8';
    const decoder = iconv.getDecoder(name);
    return {
      write: (bytes) => decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
      end: () => decoder.end() ?? '',
    };
  }
}

/** Collects warnings and forwards them to the caller's hook. */
export class Warnings {
  readonly list: string[] = [];
  private readonly hook: ((message: string) => void) | undefined;

  constructor(hook?: (message: string) => void) {
    this.hook = hook;
  }

  add(message: string): void {
    this.list.push(message);
    this.hook?.(message);
  }
}
