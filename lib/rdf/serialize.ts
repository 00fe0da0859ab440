// Quads → text in any return_type (plus N-Quads), as one string (`serialize`) or as a stream
// (`serializeStream`, for outputs of any size). Turtle, TriG, N-Triples, N-Quads and N3 come
// from n3's Writer, JSON-LD from jsonld; RDF/XML, hext and longturtle are written here (see
// their modules for why).
import type * as RDF from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import { isStringLengthError, tooLarge, invalid } from '../process/errors.ts';
import { formatInfo, type RdfFormat } from './formats.ts';
import { hextLine } from './hext.ts';
import { writeJsonLd, type JsonLdContext } from './jsonld-io.ts';
import { writeLongTurtle } from './longturtle.ts';
import { writeRdfXml } from './rdfxml.ts';

export interface SerializeOptions {
  /** Prefix name → namespace IRI. Only the prefixes the data uses are written. */
  prefixes?: Readonly<Record<string, string>>;
  /** Base IRI: written as @base / BASE / xml:base, IRIs relative to it where the format allows. */
  base?: string;
  /** JSON-LD only: the context to compact with instead of `prefixes` (bundled URLs allowed). */
  context?: JsonLdContext;
}

/** Always available, as in rdflib; a caller's prefix of the same name or IRI wins. */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  owl: 'http://www.w3.org/2002/07/owl#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
});

// Turtle's PN_PREFIX (or empty); anything else would make the output unreadable.
const PREFIX_NAME = /^(?:[A-Za-z\u00C0-\uFFFD](?:[\w.\-\u00B7\u00C0-\uFFFD]*[\w\-\u00B7\u00C0-\uFFFD])?)?$/;

function withDefaults(prefixes: Readonly<Record<string, string>> = {}): Record<string, string> {
  const merged: Record<string, string> = {};
  const given = Object.entries(validPrefixes(prefixes));
  const givenIris = new Set(given.map(([, iri]) => iri));
  for (const [name, iri] of Object.entries(DEFAULT_PREFIXES)) {
    if (!givenIris.has(iri)) merged[name] = iri;
  }
  for (const [name, iri] of given) merged[name] = iri;
  return merged;
}

function validPrefixes(prefixes: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(prefixes).filter(([name, iri]) => PREFIX_NAME.test(name) && typeof iri === 'string'),
  );
}

/** The prefixes whose namespace starts some IRI of the data (n3 writes every prefix given). */
function usedPrefixes(quads: readonly RDF.Quad[], prefixes: Record<string, string>): Record<string, string> {
  const iris = new Set<string>();
  for (const quad of quads) {
    for (const term of [quad.subject, quad.predicate, quad.object, quad.graph]) {
      if (term.termType === 'NamedNode') iris.add(term.value);
      else if (term.termType === 'Literal') iris.add(term.datatype.value);
    }
  }
  const entries = Object.entries(prefixes);
  const used = new Set<string>();
  for (const iri of iris) {
    for (const [name, namespace] of entries) if (iri.startsWith(namespace)) used.add(name);
  }
  return Object.fromEntries(entries.filter(([name]) => used.has(name)));
}

const DEFAULT_GRAPH = DataFactory.defaultGraph();

const N3_FORMATS: Partial<Record<RdfFormat, string>> = {
  turtle: 'Turtle',
  trig: 'application/trig',
  n3: 'text/n3',
  nt: 'N-Triples',
  nquads: 'N-Quads',
};

/** Formats written quad by quad as the quads come: n3's writer and hext lines need no look-ahead. */
export const STREAMED_FORMATS: ReadonlySet<RdfFormat> = new Set([
  'turtle',
  'trig',
  'n3',
  'nt',
  'nquads',
  'hext',
]);

/** Quads in batches (a batch per CSV chunk, say): one await per batch, not per quad. */
export type QuadBatches = AsyncIterable<readonly RDF.Quad[]> | Iterable<readonly RDF.Quad[]>;

export interface StreamOptions extends SerializeOptions {
  /**
   * Formats that need the whole graph (json-ld, xml, longturtle) hold at most this many
   * triples in memory; a larger graph is a 413 naming `limitName`, never a cut-off text.
   */
  maxBufferedTriples?: number;
  /** The setting that `maxBufferedTriples` comes from, named in the 413. */
  limitName?: string;
}

// Text is handed on in pieces of about this many characters.
const PIECE = 1 << 16;

/**
 * n3 encodes every IRI afresh (an escape test, the prefix regex) although a graph repeats a
 * few predicates and classes millions of times (a third of the writer's time, profiled on
 * /api/rdf): remember the last few thousand. The encoding is a function of the IRI alone
 * once the prefixes and base are set, which happens in the constructor here. Skipped should a
 * later n3 rename its internal method.
 */
function rememberIris(writer: Writer): void {
  const internal = writer as unknown as { _encodeIriOrBlank?: (entity: RDF.Term) => string };
  const encode = internal._encodeIriOrBlank?.bind(writer);
  if (typeof encode !== 'function') return;
  const known = new Map<string, string>();
  internal._encodeIriOrBlank = (entity) => {
    if (entity.termType !== 'NamedNode') return encode(entity);
    let text = known.get(entity.value);
    if (text === undefined) {
      text = encode(entity);
      if (known.size >= 4096) known.clear();
      known.set(entity.value, text);
    }
    return text;
  };
}

/**
 * n3's Writer, fed batch by batch, its text collected per batch. (n3's StreamWriter is the
 * same writer behind an object-mode Transform: one stream write per quad, measured about
 * three times slower on millions of quads.) Prefixes are declared as given: a stream cannot
 * look ahead to see which are used.
 */
async function* n3Text(
  batches: QuadBatches,
  format: RdfFormat,
  options: { prefixes: Record<string, string>; base?: string | undefined },
): AsyncGenerator<string> {
  const lineBased = format === 'nt' || format === 'nquads';
  let text = '';
  let failure: Error | undefined;
  // The writer reports a failed quad only through its callback; without one n3 drops the
  // error and writes on, which once stored a graph cut at V8's string limit as if complete.
  const done = (error?: Error | null): void => {
    if (error) failure ??= error;
  };
  const output = {
    write: (chunk: string, _encoding: string, callback?: (error?: Error | null) => void) => {
      text += chunk;
      callback?.();
    },
    end: (callback?: (error?: Error | null) => void) => callback?.(),
  };
  const writer = new Writer(
    output as unknown as NodeJS.WritableStream,
    {
      format: N3_FORMATS[format],
      ...(lineBased ? {} : { prefixes: options.prefixes }),
      ...(lineBased || !options.base ? {} : { baseIRI: options.base, writeBase: true }),
    } as ConstructorParameters<typeof Writer>[1],
  );
  rememberIris(writer);
  const keepGraphs = format === 'trig' || format === 'nquads';
  for await (const batch of batches) {
    for (const { subject, predicate, object, graph } of batch) {
      // Triple formats get the triples of every graph (n3 would write graph blocks).
      writer.addQuad(subject, predicate, object, keepGraphs ? graph : DEFAULT_GRAPH, done);
      if (failure) throw failure;
      if (text.length >= PIECE) {
        yield text;
        text = '';
      }
    }
  }
  writer.end(done);
  if (failure) throw failure;
  if (text) yield text;
}

async function* hextText(batches: QuadBatches): AsyncGenerator<string> {
  for await (const batch of batches) {
    refuseRdf12(batch, 'hext');
    let text = '';
    for (const quad of batch) text += hextLine(quad);
    yield text;
  }
}

async function collect(batches: QuadBatches, format: RdfFormat, options: StreamOptions): Promise<RDF.Quad[]> {
  const limit = options.maxBufferedTriples ?? Infinity;
  const all: RDF.Quad[] = [];
  for await (const batch of batches) {
    if (all.length + batch.length > limit) {
      const setting = options.limitName ? ` (${options.limitName})` : '';
      throw tooLarge(
        `return_type: ${format} is written from the whole graph in memory, and this graph has more than ${limit} triples${setting}; use turtle, nt, trig, n3 or hext, which are written as a stream`,
        'return_type',
      );
    }
    for (const quad of batch) all.push(quad);
  }
  return all;
}

/**
 * Writes batches of quads as `format`, yielding the text as it is made. Turtle, TriG, N3,
 * N-Triples, N-Quads and hext stream (memory stays flat whatever the size); Turtle-family
 * formats declare `options.prefixes` exactly as given, since which are used cannot be
 * known in advance. JSON-LD, RDF/XML and longturtle need the whole graph: they are written
 * by `serialize` once all quads are in, at most `maxBufferedTriples` of them.
 */
export async function* serializeStream(
  batches: QuadBatches,
  format: RdfFormat,
  options: StreamOptions = {},
): AsyncGenerator<string> {
  const { format: checked } = formatInfo(format);
  if (checked === 'hext') {
    yield* hextText(batches);
  } else if (STREAMED_FORMATS.has(checked)) {
    yield* n3Text(batches, checked, { prefixes: validPrefixes(options.prefixes), base: options.base });
  } else {
    yield await serialize(await collect(batches, checked, options), checked, options);
  }
}

/** The prefixes `serialize` declares for these quads: the given and default ones that are used. */
export function declaredPrefixes(
  quads: readonly RDF.Quad[],
  prefixes?: Readonly<Record<string, string>>,
): Record<string, string> {
  return usedPrefixes(quads, withDefaults(prefixes));
}

async function joined(pieces: AsyncIterable<string>, format: RdfFormat): Promise<string> {
  let text = '';
  try {
    for await (const piece of pieces) text += piece;
  } catch (error) {
    throw tooLongForText(error, format);
  }
  return text;
}

/** V8's "Invalid string length" as a 413 that says what to do instead. */
function tooLongForText(error: unknown, format: RdfFormat): unknown {
  if (!isStringLengthError(error)) return error;
  return tooLarge(
    `return_type: the ${format} text of this graph is longer than one string can hold (about 512 MiB); convert it where the output is streamed (annotator /api/rdf with turtle, nt, trig, n3 or hext)`,
    'return_type',
  );
}

/**
 * Writes `quads` as `format`. Formats without named graphs (turtle, longturtle, n3, nt,
 * xml) write the triples of every graph. An unknown format is an invalid DomainError naming
 * `return_type`; so is a graph RDF/XML cannot express; a text longer than a string can
 * hold is a 413 (never a cut-off text).
 */
export async function serialize(
  quads: Iterable<RDF.Quad>,
  format: RdfFormat,
  options: SerializeOptions = {},
): Promise<string> {
  const { format: checked } = formatInfo(format);
  const all = Array.isArray(quads) ? (quads as readonly RDF.Quad[]) : [...quads];
  if (checked === 'json-ld' || checked === 'xml') refuseRdf12(all, checked);
  try {
    switch (checked) {
      case 'json-ld':
        return await writeJsonLd(all, {
          prefixes: declaredPrefixes(all, options.prefixes),
          ...baseOption(options),
          ...(options.context === undefined ? {} : { context: options.context }),
        });
      case 'xml':
        return writeRdfXml(all, { prefixes: withDefaults(options.prefixes), ...baseOption(options) });
      case 'longturtle':
        return await writeLongTurtle(all, {
          prefixes: withDefaults(options.prefixes),
          ...baseOption(options),
        });
      default: {
        const prefixes = checked === 'hext' ? {} : declaredPrefixes(all, options.prefixes);
        return await joined(serializeStream([all], checked, { prefixes, ...baseOption(options) }), checked);
      }
    }
  } catch (error) {
    throw tooLongForText(error, checked);
  }
}

/**
 * n3 reads RDF 1.2 (triple terms, directional language strings) from Turtle-family input.
 * JSON-LD, RDF/XML and hext as written here cannot carry them, and would lose or garble
 * them silently, so they are refused.
 */
function refuseRdf12(quads: readonly RDF.Quad[], format: RdfFormat): void {
  for (const { subject, object } of quads) {
    const tripleTerm = subject.termType === 'Quad' || object.termType === 'Quad';
    const direction = object.termType === 'Literal' && (object as { direction?: string }).direction;
    if (tripleTerm || direction) {
      const what = tripleTerm ? 'triple terms' : 'directional language strings';
      throw invalid(
        `return_type: ${format} cannot express RDF 1.2 ${what}; use turtle, longturtle, trig, n3 or nt`,
        'return_type',
      );
    }
  }
}

function baseOption(options: SerializeOptions): { base?: string } {
  return options.base === undefined ? {} : { base: options.base };
}
