// Helpers of the annotator tests: sources from fixture files or bytes, and golden files.
import { createReadStream, readFileSync } from 'node:fs';
import {
  annotate,
  type AnnotateOptions,
  type AnnotateResult,
  type Descriptor,
} from '../../lib/annotator/index.ts';
import iconv from 'iconv-lite';
import { seedFixture } from '../support/shared.ts';
import { isDomainError } from '../../lib/process/errors.ts';

/** The URL the regenerated descriptors name their CSVs by. */
export const EXAMPLES = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/';

export const csvtocsvw = (path: string): string => seedFixture(`csvtocsvw/${path}`);

export function annotateFile(
  path: string,
  csvUrl: string,
  options: AnnotateOptions = {},
): Promise<AnnotateResult> {
  return annotate({ open: () => createReadStream(path), csvUrl }, options);
}

/** Annotates bytes (or text, as UTF-8), handed over in chunks of `chunk` bytes. */
export function annotateBytes(
  content: Buffer | string,
  options: AnnotateOptions & { csvUrl?: string; chunk?: number; field?: 'data_url' | 'file' } = {},
): Promise<AnnotateResult> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const size = options.chunk ?? 64 * 1024;
  const chunks = (): Buffer[] => {
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
    return out;
  };
  return annotate(
    {
      open: chunks,
      csvUrl: options.csvUrl ?? `${EXAMPLES}test.csv`,
      ...(options.field ? { field: options.field } : {}),
    },
    options,
  );
}

/**
 * The descriptor of `text` handed over in chunks of `chunk` bytes (fixed provenance), or the
 * DomainError's message: what differential tests compare.
 */
export async function outcomeOf(text: string, chunk: number, fastPath = true): Promise<unknown> {
  try {
    const options = { chunk, fastPath, provenance: { activity: 'urn:x', time: new Date(0) } };
    return (await annotateBytes(text, options)).descriptor;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return error.message;
  }
}

/** A golden descriptor without its run-specific provenance (activity id, timestamp). */
export function golden(path: string): Record<string, unknown> {
  return withoutProvenance(JSON.parse(readFileSync(csvtocsvw(path), 'utf8')) as Record<string, unknown>);
}

export function withoutProvenance(descriptor: Descriptor | Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(descriptor) as Record<string, unknown>;
  delete copy['prov:wasGeneratedBy'];
  delete copy['prov:generatedAtTime'];
  return copy;
}

/** JSON round trip, so the comparison sees what a client receives. */
export function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

// A word per encoding that only that script or code page writes (all encodable in it).
// prettier-ignore
export const ENCODED_WORDS: Record<string, string> = {
  'utf-8': 'Prüfkörper 試験', ascii: 'Probe', 'iso-8859-1': 'Prüfkörper', 'iso-8859-2': 'Zkouška',
  'iso-8859-3': 'Ġenerali', 'iso-8859-4': 'Ķēde', 'iso-8859-5': 'Образец', 'iso-8859-6': 'عينة',
  'iso-8859-7': 'Δοκίμιο', 'iso-8859-8': 'דגימה', 'iso-8859-9': 'Numune ğ', 'iso-8859-10': 'Ŋŧ prøve',
  'iso-8859-13': 'Bandinys ų', 'iso-8859-14': 'Ŵŷ sampl', 'iso-8859-15': 'Œuvre €',
  'iso-8859-16': 'Încercare ș', 'windows-1250': 'Próbka ł', 'windows-1251': 'Образец',
  'windows-1252': 'Prüfung €', 'windows-1253': 'Δοκίμιο', 'windows-1254': 'Numune ş',
  'windows-1255': 'דגימה', 'windows-1256': 'عينة', 'windows-1257': 'Bandinys ė',
  'windows-1258': 'M\u00e2\u0303u', 'koi8-r': 'Образец', 'koi8-u': 'Зразок ї', 'mac-cyrillic': 'Образец',
  'mac-roman': 'Prüfung ∑',
};

/** A small multi-block CSV with the encoding's word in a metadata row, and its bytes in that encoding. */
export function encodedSample(encoding: string): { source: string; word: string; bytes: Buffer } {
  const word = ENCODED_WORDS[encoding] as string;
  // windows-1258 writes Vietnamese tones as combining marks (the word above is so).
  const source = `Sample;${word}\n\nTime [s];Force [kN]\n0,5;1,5\n1,0;2,5\n`;
  return { source, word, bytes: iconv.encode(source, encoding) };
}
