// Helpers of the annotator tests: sources from fixture files or bytes, and golden files.
import { createReadStream, readFileSync } from 'node:fs';
import {
  annotate,
  type AnnotateOptions,
  type AnnotateResult,
  type Descriptor,
} from '../../lib/annotator/index.ts';
import { seedFixture } from '../support/shared.ts';

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
