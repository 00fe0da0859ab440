// annotate(): CSV bytes → CSVW descriptor in one streaming pass. Bytes are decoded chunk by
// chunk, cut into lines and handed to the Segmenter; nothing but the metadata lines, the first
// lines of each part and per-column counters is kept, whatever the size of the table.
import type { Readable } from 'node:stream';
import type { DomainError } from '../process/errors.ts';
import { invalid } from '../process/errors.ts';
import { LineBreaks } from '../line-breaks.ts';
import { maxColumns } from '../limits.ts';
import { buildDescriptor, type Descriptor, type Provenance } from './descriptor.ts';
import {
  checkEncoding,
  detect,
  explicitDecoder,
  NotUtf8,
  type Decoder,
  type EncodingName,
} from './encoding.ts';
import { csvNames, metadataFileNameFor } from './names.ts';
import { Segmenter } from './segmenter.ts';
import { count } from '../process/counters.ts';

export interface CsvSource {
  /** The CSV's bytes; called again if `auto` has to restart with a legacy encoding. */
  open(): Readable | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  /** The URL the descriptor names the CSV by (for uploads: labld's stable URL of the file). */
  csvUrl: string;
  /** The file's own name (an upload's client-side name): names the download; default from csvUrl. */
  fileName?: string;
  /** The request field the bytes came from, named in errors: `data_url` or `file` (default). */
  field?: 'data_url' | 'file';
}

export interface AnnotateOptions {
  /** `auto` (default) or one of ENCODINGS; anything else is a 422 naming `encoding`. */
  encoding?: string;
  provenance?: Provenance;
  /** Longest line accepted, in characters (default 1 MiB). */
  maxLineLength?: number;
  /** Metadata characters kept for notes (default 64 MiB). */
  maxMetadataChars?: number;
  /** Most columns in a row (default LABLD_MAX_COLUMNS). */
  maxColumns?: number;
  /** Hot path for plain table rows (default true); false is for differential tests. */
  fastPath?: boolean;
}

export interface AnnotateResult {
  descriptor: Descriptor;
  /** Download name of the json-ld descriptor, e.g. `example-metadata.json`. */
  metadataFileName: string;
  /** The encoding the file was read with (also the tables' dialect.encoding). */
  encoding: string;
  bytes: number;
  lines: number;
}

const SAMPLE_BYTES = 64 * 1024;
const DEFAULT_MAX_LINE = 1024 * 1024;
const DEFAULT_MAX_METADATA = 64 * 1024 * 1024;

export async function annotate(source: CsvSource, options: AnnotateOptions = {}): Promise<AnnotateResult> {
  const encoding = checkEncoding(options.encoding);
  count('parse.csv');
  const opened: unknown[] = [];
  const tracked: CsvSource = {
    ...source,
    open: () => {
      const stream = source.open();
      opened.push(stream);
      return stream;
    },
  };
  try {
    return await pass(tracked, encoding, options);
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    // `auto` read UTF-8 (with non-ASCII text) in the first bytes; later bytes are not UTF-8.
    // The whole file is read again in the encoding those bytes suggest.
    const again = source.open();
    if (opened.includes(again)) {
      const field = source.field ?? 'file';
      throw invalid(
        `encoding: the file starts as UTF-8 but has bytes that are not; name its encoding (${field})`,
        'encoding',
      );
    }
    return pass({ ...source, open: () => again }, encoding, options, error.sample);
  }
}

async function pass(
  source: CsvSource,
  encoding: EncodingName,
  options: AnnotateOptions,
  legacySample?: Buffer,
): Promise<AnnotateResult> {
  const field = source.field ?? 'file';
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const segmenter = new Segmenter(field, {
    maxMetadataChars: options.maxMetadataChars ?? DEFAULT_MAX_METADATA,
    maxColumns: options.maxColumns ?? maxColumns(),
  });
  let decoder: Decoder | undefined;
  let wide = false;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let lines = 0;
  let carry = '';
  const breaks = new LineBreaks();

  const feed = (chunk: string): void => {
    const text = breaks.normalize(chunk);
    let from = 0;
    for (;;) {
      if (carry === '') {
        const quiet = segmenter.quietBlock(text, from);
        from += quiet.chars;
        lines += quiet.lines;
      }
      const at = text.indexOf('\n', from);
      if (at < 0) break;
      const line = carry === '' ? text.slice(from, at + 1) : carry + text.slice(from, at + 1);
      carry = '';
      if (line.length > maxLine) throw tooLong(field, lines, maxLine);
      segmenter.push(line);
      lines++;
      from = at + 1;
    }
    if (from < text.length) carry += text.slice(from);
    if (carry.length > maxLine) throw tooLong(field, lines, maxLine);
  };
  const decode = (chunk: Buffer): void => {
    if (!wide && isBinary(chunk)) {
      throw invalid(`${field}: this is a binary file (it contains NUL bytes), not a CSV text file`, field);
    }
    let text: string;
    try {
      text = (decoder as Decoder).write(chunk);
    } catch (error) {
      if (!(error instanceof NotUtf8 && error.resumable)) throw error;
      // Only ASCII so far, which every legacy encoding reads alike: switch and go on.
      decoder = detect(chunk, true).decoder;
      text = decoder.write(chunk);
    }
    feed(text);
  };
  const start = (): void => {
    const sample = Buffer.concat(pending);
    pending = [];
    if (encoding !== 'auto') decoder = explicitDecoder(encoding);
    else {
      const detected = detect(legacySample ?? sample, legacySample !== undefined);
      decoder = detected.decoder;
      wide = detected.wide;
    }
    if (sample.length > 0) decode(sample);
  };

  for await (const chunk of source.open()) {
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += buffer.length;
    if (decoder) decode(buffer);
    else {
      pending.push(buffer);
      pendingBytes += buffer.length;
      if (pendingBytes >= SAMPLE_BYTES) start();
    }
  }
  if (bytes === 0) throw invalid(`${field}: the file is empty`, field);
  if (!decoder) start();
  feed((decoder as unknown as Decoder).end());
  feed(breaks.end());
  if (carry !== '') {
    segmenter.push(carry);
    lines++;
  }

  const names = csvNames(source.csvUrl, source.fileName);
  const label = (decoder as unknown as Decoder).label;
  const { notes, tables, nonBlankLines } = segmenter.finish({
    namespace: names.namespace,
    url: source.csvUrl,
    encoding: label,
  });
  if (nonBlankLines === 0) throw invalid(`${field}: the file has no content (only blank lines)`, field);
  if (nonBlankLines === 1 && tables.length === 0) {
    throw invalid(
      `${field}: the file has a single line (a header without data rows); nothing to annotate`,
      field,
    );
  }
  const descriptor = buildDescriptor({
    csvUrl: source.csvUrl,
    namespace: names.namespace,
    notes,
    tables,
    ...(options.provenance ? { provenance: options.provenance } : {}),
  });
  // An upload's download name follows the client's file name, whatever labld's URL is.
  const metadataFileName = source.fileName ? metadataFileNameFor(source.fileName) : names.metadataFileName;
  return { descriptor, metadataFileName, encoding: label, bytes, lines };
}

function tooLong(field: string, line: number, max: number): DomainError {
  return invalid(
    `${field}: line ${line + 1} is longer than ${max} characters; this is not a line-oriented CSV file`,
    field,
  );
}

/**
 * A chunk with NUL bytes and more control bytes than a text export's padding holds (Bose
 * WinTest ends its first line with one NUL, UBM Rheogel pads quoted fields with 48 in 87 kB):
 * compressed or binary data has about one in eleven, text next to none.
 */
function isBinary(chunk: Buffer): boolean {
  if (chunk.indexOf(0) < 0) return false;
  let controls = 0;
  for (const byte of chunk) if (byte < 9 || (byte > 13 && byte < 32 && byte !== 27)) controls++;
  return controls * 100 > chunk.length;
}
