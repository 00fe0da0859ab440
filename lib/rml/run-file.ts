// Runs a mapping file (RML Turtle or YARRRML) whose sources are files relative to it, writing
// the graph to a stream: the work behind `labld rml MAPPING [--out FILE]`. N-Triples and
// N-Quads are written as they are produced; other formats need the whole graph, so they are
// collected and go through the shared formats module (lib/rdf).
import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { executeMapping, type ExecuteOptions, type ExecutionResult } from './executor.ts';
import { parseMapping } from './mapping.ts';
import type { Mapping } from './model.ts';
import type { RdfFormat } from '../rdf/formats.ts';
import { endStream, NQuadsWriter, rdfjsSink, type QuadSink } from './sink.ts';
import { hasScheme } from './terms.ts';

interface LoadedMapping {
  mapping: Mapping;
  /** Base IRI for generated relative IRIs, when the mapping sets one (YARRRML `base`). */
  baseIri?: string;
}

/** YARRRML by extension (.yml, .yaml, .yarrrml) or, failing that, by a top-level `mappings:` key. */
export function isYarrrml(path: string, text: string): boolean {
  if (/\.(ya?ml|yarrrml)$/i.test(path)) return true;
  if (/\.(ttl|rml|n3|nt)$/i.test(path)) return false;
  return /^(mappings|mapping|m)\s*:/m.test(text);
}

/**
 * A YARRRML `base` as the base of generated IRIs: absolute as written, or relative (the seed's
 * `base: '#'`) resolved against the IRI of the output document.
 */
export function resolveYarrrmlBase(base: string | undefined, documentIri: string): string | undefined {
  if (base === undefined) return undefined;
  return hasScheme(base) ? base : new URL(base, documentIri).href;
}

// YARRRML's parser and lib/rdf's serializers are imported when a run needs them: together they
// are most of the start-up CPU of an N-Triples run of an RML mapping (0.5 against 0.3 s).
async function loadMappingFile(
  path: string,
  documentIri = pathToFileURL(resolve(path)).href,
): Promise<LoadedMapping> {
  const text = readFileSync(path, 'utf8');
  if (!isYarrrml(path, text))
    return { mapping: parseMapping(text, { baseIri: pathToFileURL(resolve(path)).href }) };
  const { readYarrrml, yarrrmlBase, yarrrmlToMapping } = await import('./yarrrml.ts');
  const document = readYarrrml(text);
  return {
    mapping: yarrrmlToMapping(document),
    baseIri: resolveYarrrmlBase(yarrrmlBase(document), documentIri),
  };
}

export interface RunFileOptions extends ExecuteOptions {
  /**
   * Output format (default N-Quads). `nt` drops graph names; `nq`/`nquads` keeps them; both
   * stream. Any other format of lib/rdf is serialized once the run is over.
   */
  format?: 'nq' | RdfFormat;
  /** IRI of the output document (for relative YARRRML bases); defaults to the mapping's file URL. */
  documentIri?: string;
}

/** Executes the mapping at `path` into `out` (which is ended when done). */
export async function runMappingFile(
  path: string,
  out: Writable,
  options: RunFileOptions = {},
): Promise<ExecutionResult> {
  const { mapping, baseIri } = await loadMappingFile(path, options.documentIri);
  const format = options.format ?? 'nq';
  const execute = (sink: QuadSink) =>
    executeMapping(mapping, sink, {
      mappingDir: dirname(resolve(path)),
      ...options,
      baseIri: options.baseIri ?? baseIri,
    });
  if (format === 'nt' || format === 'nq' || format === 'nquads') {
    const writer = new NQuadsWriter(out, { defaultGraphOnly: format === 'nt' });
    try {
      return await execute(writer);
    } finally {
      await writer.end();
    }
  }
  const quads: RDF.Quad[] = [];
  let result: ExecutionResult;
  try {
    result = await execute(rdfjsSink((quad) => quads.push(quad)));
    const { serialize } = await import('../rdf/serialize.ts');
    out.write(await serialize(quads, format));
  } finally {
    await endStream(out);
  }
  return result;
}
