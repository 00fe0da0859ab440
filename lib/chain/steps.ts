// The chain's steps as functions from stored files to stored files (spec "Automation chain",
// steps 2, 4 and 6; step 5 is select.ts). Each calls the same domain code as the service's
// request consumer (consumers/annotator.ts, consumers/converter.ts) — the annotator, csv2rdf's
// descriptor graph, the converter's createrdf — on blobs instead of client URLs, and returns
// what it stored plus a summary for the step status. Nothing here knows the bus, HTTP or the
// catalogue store: the consumer hands in the files with their catalogue URLs and stores the
// outputs as resources under the names of names.ts.
import type { Readable } from 'node:stream';
import type { BlobStore } from '../blobs/blob-store.ts';
import { storeDownload, storeDownloadStream, type Download } from '../blobs/download.ts';
import { annotate, renderDescriptor } from '../annotator/index.ts';
import { createRdf } from '../converter/index.ts';
import { descriptorTurtle } from '../csvw/index.ts';
import type { Loader } from '../loader.ts';
import { services } from '../services.ts';
import { chainLoaders, type ChainFile } from './files.ts';
import { derivedNames } from './names.ts';
import { mappingFile, type MappingEntry } from './select.ts';
import { elapsedMs, type Progress, type StepSummary } from './status.ts';

/** What a step is told of labld's configuration: lib/chain reads none itself. */
export interface StepSettings {
  /** labld's public URL without a trailing slash, under which a step's provenance names its service. */
  siteUrl: string;
  /** LABLD_MAX_OUTPUT_BYTES: the bound of a step's output (describe's grows with its CSV). */
  maxOutputBytes: number;
}

export interface StepContext extends StepSettings {
  blobs: BlobStore;
  /** Reads URLs that are not files of the chain (a mapping's template); the consumer's guarded fetch. */
  load?: Loader;
  signal?: AbortSignal;
  /** Called as a long step goes on (rows read, triples written). */
  onProgress?: (progress: Progress) => void;
  /** The time written into provenance (default now). */
  now?: Date;
}

/** What a step stored: the blob, its media type and its resource name (names.ts). */
export type StepOutput = Download;

/**
 * The provenance activity of a step: the endpoint of labld's service that does the same, as
 * the original named the service request its chain made.
 */
function activity(context: StepSettings, service: 'annotator' | 'converter', path: string): string {
  return `${context.siteUrl}${services[service].basePath}${path}`;
}

/** Bytes read between two progress reports of the annotate step. */
const PROGRESS_BYTES = 256 * 1024;

/** The CSV's bytes, reporting how many have been read (the annotator reads the file once, streaming). */
function reading(
  stream: Readable,
  onProgress: StepContext['onProgress'],
): Readable | AsyncIterable<Uint8Array> {
  if (!onProgress) return stream;
  return (async function* () {
    let bytes = 0;
    let next = PROGRESS_BYTES;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes >= next) {
        onProgress({ bytes });
        next = bytes + PROGRESS_BYTES;
      }
      yield chunk;
    }
  })();
}

/** Step 2, annotate: the CSV → its CSVW descriptor `<base>-metadata.jsonld`. */
export async function annotateStep(
  input: { csv: ChainFile; encoding?: string },
  context: StepContext,
): Promise<{ descriptor: StepOutput; summary: StepSummary }> {
  const started = performance.now();
  const { blobs } = context;
  const result = await annotate(
    // An upload: errors name the `file`, and a second read (a legacy encoding) opens it again.
    {
      open: () => reading(blobs.open(input.csv.blob, 'file'), context.onProgress),
      csvUrl: input.csv.url,
      fileName: input.csv.name,
      field: 'file',
    },
    {
      encoding: input.encoding ?? 'auto',
      provenance: {
        activity: activity(context, 'annotator', '/api/annotate'),
        ...(context.now ? { time: context.now } : {}),
      },
    },
  );
  const name = derivedNames(input.csv.name).descriptor;
  const rendered = await renderDescriptor(result.descriptor, 'json-ld');
  const descriptor = await storeDownload(
    blobs,
    rendered.body,
    name.contentType,
    name.name,
    context.maxOutputBytes,
  );
  // The file's own columns: the annotator adds a suppressed row identifier (GID) to each table,
  // which is not in the file and not imported, so it is not counted (import says the same number).
  const columns = result.descriptor.tables.reduce(
    (n, table) => n + table.tableSchema.columns.filter((c) => !c.virtual && !c.suppressOutput).length,
    0,
  );
  const summary: StepSummary = {
    durationMs: elapsedMs(started),
    bytes: result.bytes,
    lines: result.lines,
    note: `${result.descriptor.tables.length} table(s), ${columns} column(s), read as ${result.encoding}`,
  };
  return { descriptor, summary };
}

/**
 * A CSV's Turtle is about 22 times its size (the 1 GB bench file: 622,758,943 triples), so a CSV
 * the upload limit let in may pass LABLD_MAX_OUTPUT_BYTES in describe; its output is bounded by
 * its own input instead, with room to spare, and never below the setting.
 */
export const TURTLE_PER_CSV_BYTE = 32;

export function describeLimit(csvBytes: number, setting: number): number {
  return Math.max(setting, csvBytes * TURTLE_PER_CSV_BYTE);
}

/**
 * Step 4, describe: the descriptor and the rows of the CSV it describes as Turtle `<base>.ttl`
 * (what the original's /api/rdf gave, research §1.4), written to the blob store as the CSV
 * streams.
 */
export async function describeStep(
  input: { descriptor: ChainFile; csv: ChainFile },
  context: StepContext,
): Promise<{ turtle: StepOutput; summary: StepSummary }> {
  const started = performance.now();
  const loaders = chainLoaders([input.descriptor, input.csv], context.blobs, context.load);
  const graph = await descriptorTurtle({ metadataUrl: input.descriptor.url }, loaders.resource, {
    activityUrl: activity(context, 'annotator', '/api/rdf'),
    ...(context.now ? { generatedAt: context.now.toISOString() } : {}),
  });
  const counts = graph.counts;
  // Turtle is written as the CSV is read (never held whole).
  const body = progressed(graph.chunks, counts, context);
  const name = derivedNames(input.csv.name).turtle;
  const turtle = await storeDownloadStream(context.blobs, body, name.contentType, name.name, {
    signal: context.signal,
    limit: describeLimit(context.blobs.size(input.csv.blob), context.maxOutputBytes),
  });
  return { turtle, summary: { durationMs: elapsedMs(started), triples: counts.triples, rows: counts.rows } };
}

/** The chunks, with the counts so far reported as each is handed on. */
async function* progressed(
  chunks: AsyncIterable<Uint8Array>,
  counts: { triples: number; rows: number },
  context: StepContext,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    context.onProgress?.({ triples: counts.triples, rows: counts.rows });
    yield chunk;
  }
}

/**
 * Step 6, convert: the selected mapping run over the descriptor by createrdf, the joined
 * graph stored as `<base>-joined.ttl`. createrdf makes its graph whole (the engine joins the
 * template and the quantity values), so this step does not stream; the graph is stored as is.
 */
export async function convertStep(
  input: { descriptor: ChainFile; csv: ChainFile; mapping: MappingEntry },
  context: StepContext,
): Promise<{ joined: StepOutput; summary: StepSummary }> {
  const started = performance.now();
  const mapping = await mappingFile(input.mapping, context.blobs);
  const loaders = chainLoaders([input.descriptor, input.csv, mapping], context.blobs, context.load);
  context.signal?.throwIfAborted();
  const conversion = await createRdf(
    {
      mappingUrl: mapping.url,
      dataUrl: input.descriptor.url,
      returnType: 'turtle',
      activity: activity(context, 'converter', '/api/createrdf'),
      ...(context.now ? { now: context.now } : {}),
    },
    loaders.text,
  );
  const name = derivedNames(input.csv.name).joined;
  const joined = await storeDownload(
    context.blobs,
    conversion.graph,
    name.contentType,
    name.name,
    context.maxOutputBytes,
  );
  const summary: StepSummary = {
    durationMs: elapsedMs(started),
    triples: conversion.tripleCount,
    note: `mapping ${JSON.stringify(input.mapping.name)}: ${conversion.num_mappings_applied} rules applied, ${conversion.num_mappings_skipped} skipped`,
  };
  return { joined, summary };
}
