// Logical source readers: where the bytes come from (file, in-memory content, or a caller's
// opener for URLs — the seam for the guarded fetch) and how records and references are read
// (CSV rows streamed in chunks; JSON parsed once per run and iterated with JSONPath; XML in
// xml-source.ts).
import { createReadStream } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TextDecoder } from 'node:util';
import { createGunzip, gunzipSync } from 'node:zlib';
import { CsvParser } from './csv.ts';
import { dataError, expressionError, mappingError, placed, RmlError, sourceError } from './errors.ts';
import { LimitError, parseJson } from '../limits.ts';
import { compileJsonPath } from './jsonpath.ts';
import type { LogicalSource } from './model.ts';
import { hasScheme } from './terms.ts';
import { ViewReader } from './view-source.ts';
import { XmlReader } from './xml-source.ts';

export type Value = string | number | boolean;
/** One value, several (JSONPath), or none. */
export type Values = Value | Value[] | null;
export type Evaluator = (record: unknown) => Values;

export type SourceContent = string | Uint8Array | Readable;

export interface SourceOptions {
  /** Directory of the mapping: relative source paths start here. */
  mappingDir?: string;
  /** Working directory for `rml:root rml:CurrentWorkingDirectory` (defaults to the process's). */
  cwd?: string;
  /** Content by the location or path written in the mapping (takes precedence over files). */
  sources?: Record<string, string | Uint8Array>;
  /** JSON sources the caller has parsed already, by the same names: read as they are, not parsed again. */
  parsed?: Record<string, unknown>;
  /** Opens a URL source (http, https, …): the seam for the guarded fetch. */
  openUrl?: (url: string) => Promise<SourceContent>;
}

export interface SourceReader {
  readonly source: LogicalSource;
  /**
   * Compiles a reference; unknown CSV columns fail as soon as the header is read. With
   * `flatten`, JSON arrays of values count as several values (function list inputs).
   */
  /**
   * `optional`: a reference that may name a missing CSV column, which then gives no value
   * (legacy function inputs: RMLMapper's own tests expect no error there).
   */
  reference(expression: string, flatten?: boolean, optional?: boolean): Evaluator;
  /** Feeds every record to `each`; `pause` is awaited between input chunks (backpressure). */
  forEach(each: (record: unknown) => void, pause?: () => Promise<void> | void): Promise<void>;
}

/** Per-run cache of parsed documents (JSON, XML), so triples maps over one file parse it once. */
export type DocumentCache = Map<string, Promise<unknown>>;

/** The document under `key`, loaded on first use. */
export function cachedDocument(
  cache: DocumentCache,
  key: string,
  load: () => Promise<unknown>,
): Promise<unknown> {
  let document = cache.get(key);
  if (!document) cache.set(key, (document = load()));
  return document;
}

/** Feeds in-memory items to `each`; the output is not in memory, so the sink drains now and then. */
export async function feedItems(
  items: unknown[],
  each: (record: unknown) => void,
  pause?: () => Promise<void> | void,
): Promise<void> {
  for (let i = 0; i < items.length; i += 1) {
    each(items[i]);
    if (i % 10_000 === 9_999) await pause?.();
  }
}

export function openReader(
  source: LogicalSource,
  options: SourceOptions,
  cache: DocumentCache,
): SourceReader {
  if (source.formulation === 'csv') return new CsvReader(source, options);
  if (source.formulation === 'jsonpath') return new JsonReader(source, options, cache);
  if (source.formulation === 'xpath') return new XmlReader(source, options, cache);
  if (source.formulation === 'view') return new ViewReader(source, options, cache);
  throw sourceError(`Sources with reference formulation <${source.formulationIri}> are not supported`);
}

export function where(source: LogicalSource): string {
  return source.access.kind === 'path' ? source.access.path : source.access.location;
}

async function content(source: LogicalSource, options: SourceOptions): Promise<SourceContent> {
  const raw = await rawContent(source, options);
  if (!source.compression) return raw;
  if (source.compression !== 'gzip') {
    throw sourceError(
      `The source ${where(source)} is compressed with ${source.compression}; only gzip is supported`,
    );
  }
  if (typeof raw === 'string') throw sourceError(`The source ${where(source)} is text, not gzip data`);
  if (raw instanceof Uint8Array) return gunzipSync(raw);
  const gunzip = createGunzip();
  raw.once('error', (error) => gunzip.destroy(error));
  return raw.pipe(gunzip);
}

async function rawContent(source: LogicalSource, options: SourceOptions): Promise<SourceContent> {
  const name = where(source);
  const given = options.sources?.[name];
  if (given !== undefined) return given;
  const base = options.mappingDir ?? process.cwd();
  let path: string;
  if (source.access.kind === 'path') {
    path = resolve(source.access.root === 'cwd' ? (options.cwd ?? process.cwd()) : base, name);
  } else if (/^file:/i.test(name)) {
    path = fileURLToPath(name);
  } else if (hasScheme(name) && !/^[a-z]:[\\/]/i.test(name)) {
    if (!options.openUrl) throw sourceError(`The source ${name} is a URL, and no URL opener was given`);
    return options.openUrl(name);
  } else {
    path = isAbsolute(name) ? name : resolve(base, name);
  }
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  await new Promise<void>((ok, fail) => {
    stream.once('open', () => ok());
    stream.once('error', (error) => fail(sourceError(`Cannot read the source ${name}: ${error.message}`)));
  });
  return stream;
}

/** A byte order mark decides the encoding, whatever the mapping says. */
function sniff(bytes: Uint8Array, encoding: string): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  return encoding;
}

function decoderFor(encoding: string): TextDecoder {
  try {
    return new TextDecoder(encoding);
  } catch {
    throw sourceError(`Unknown encoding "${encoding}"`);
  }
}

async function* textChunks(data: SourceContent, encoding: string): AsyncGenerator<string> {
  if (typeof data === 'string') {
    yield data;
    return;
  }
  if (data instanceof Uint8Array) {
    yield decoderFor(sniff(data, encoding)).decode(data);
    return;
  }
  let decoder: TextDecoder | undefined;
  for await (const chunk of data) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    decoder ??= decoderFor(sniff(chunk as Uint8Array, encoding));
    yield decoder.decode(chunk as Uint8Array, { stream: true });
  }
  const rest = decoder?.decode();
  if (rest) yield rest;
}

class CsvReader implements SourceReader {
  readonly source: LogicalSource;
  private readonly options: SourceOptions;
  private readonly columns: { name: string; index: number; optional: boolean }[] = [];

  constructor(source: LogicalSource, options: SourceOptions) {
    this.source = source;
    this.options = options;
  }

  reference(expression: string, _flatten = false, optional = false): Evaluator {
    const column = { name: expression, index: -1, optional };
    this.columns.push(column);
    const nulls = this.source.nullValues;
    if (nulls.length === 0) return (row) => (row as string[])[column.index] ?? null;
    const isNull = new Set(nulls);
    return (row) => {
      const value = (row as string[])[column.index];
      return value === undefined || isNull.has(value) ? null : value;
    };
  }

  async forEach(each: (record: unknown) => void, pause?: () => Promise<void> | void): Promise<void> {
    let header: string[] | undefined;
    let line = 1;
    const strict = !this.source.lenient;
    const name = `the source ${where(this.source)}`;
    const parser = new CsvParser(
      this.source.dialect,
      (row) => {
        line += 1;
        if (!header) this.resolveColumns((header = row));
        else if (strict && row.length !== header.length) {
          throw dataError(
            `CSV record ${line - 1} of ${where(this.source)} has ${row.length} cells; the header has ${header.length}`,
          );
        } else each(row);
      },
      name,
    );
    const data = await content(this.source, this.options);
    for await (const text of textChunks(data, this.source.encoding)) {
      parser.push(text);
      await pause?.();
    }
    parser.end();
    if (!header) this.resolveColumns([]);
  }

  private resolveColumns(header: string[]): void {
    for (const column of this.columns) {
      column.index = header.indexOf(column.name);
      if (column.index >= 0 || column.optional) continue;
      // A mapping error in both profiles: RMLMapper stops on it too (RMLTC0002e).
      throw mappingError(
        `The CSV source ${where(this.source)} has no column "${column.name}" (columns: ${header.join(', ')})`,
      );
    }
  }
}

class JsonReader implements SourceReader {
  readonly source: LogicalSource;
  private readonly options: SourceOptions;
  private readonly cache: DocumentCache;
  private readonly iterator: (root: unknown) => unknown[];

  constructor(source: LogicalSource, options: SourceOptions, cache: DocumentCache) {
    this.source = source;
    this.options = options;
    this.cache = cache;
    this.iterator = placed({ field: 'rml:iterator' }, () => compileJsonPath(source.iterator ?? '$'));
  }

  reference(expression: string, flatten = false): Evaluator {
    // References are relative to the iteration: `$.a`, `['a b']`, `.a.b` and plain `a` (or `@id`).
    const path = expression.startsWith('$')
      ? expression
      : expression.startsWith('[') || expression.startsWith('.')
        ? `$${expression}`
        : `$.${expression}`;
    const evaluate = compileReference(expression, path);
    const add = (values: Value[], value: unknown): void => {
      if (value === null || value === undefined) return;
      if (typeof value !== 'object') values.push(value as Value);
      else if (flatten && Array.isArray(value)) for (const item of value) add(values, item);
      else throw notScalar(expression, value);
    };
    return (item) => {
      const found = evaluate(item);
      if (found.length === 1) {
        const value = found[0];
        if (value === null || value === undefined) return null;
        if (typeof value !== 'object') return value as Value;
      }
      const values: Value[] = [];
      for (const value of found) add(values, value);
      return values.length === 0 ? null : values.length === 1 ? values[0]! : values;
    };
  }

  async forEach(each: (record: unknown) => void, pause?: () => Promise<void> | void): Promise<void> {
    const key = JSON.stringify([this.source.access, this.source.encoding]);
    const document = await cachedDocument(this.cache, key, () => this.load());
    await feedItems(this.iterator(document), each, pause);
  }

  private async load(): Promise<unknown> {
    // A compressed source is read as written (and refused when it is not what it says).
    const parsed = this.source.compression ? undefined : this.options.parsed?.[where(this.source)];
    if (parsed !== undefined) return parsed;
    const text = await readSourceText(this.source, this.options);
    try {
      const what = `The source ${where(this.source)}`;
      return parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, undefined, what);
    } catch (error) {
      if (error instanceof LimitError) throw error;
      throw sourceError(`The source ${where(this.source)} is not valid JSON: ${(error as Error).message}`);
    }
  }
}

/** A reference's JSONPath; a fault names the reference as written, not the path it was read as. */
function compileReference(expression: string, path: string): (root: unknown) => unknown[] {
  try {
    return compileJsonPath(path);
  } catch (error) {
    const fault = error instanceof RmlError ? error.fault : undefined;
    if (!fault || path === expression) throw error;
    const shift = path.length - expression.length;
    const position = fault.position === undefined ? undefined : Math.max(fault.position - shift, 0);
    throw expressionError({ ...fault, expression, ...(position === undefined ? {} : { position }) });
  }
}

/** The whole text of a source (for formats parsed as one document: JSON, XML). */
export async function readSourceText(source: LogicalSource, options: SourceOptions): Promise<string> {
  let text = '';
  for await (const chunk of textChunks(await content(source, options), source.encoding)) text += chunk;
  return text;
}

function notScalar(expression: string, value: object): Error {
  const what = Array.isArray(value) ? 'an array' : 'an object';
  return dataError(
    `The reference "${expression}" yields ${what}, not a value (select its items, e.g. with [*])`,
  );
}
