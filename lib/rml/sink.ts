// Where quads go. The executor hands every quad to a QuadSink as four N-Triples term strings
// (graph '' = default graph). Sinks here: an N-Quads/N-Triples writer that batches text for a
// stream (with backpressure), and an adapter to RDF/JS quads for everything else — the seam
// for the shared formats module (Turtle, JSON-LD, …).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Writable } from 'node:stream';

export interface QuadSink {
  /** Terms in N-Triples syntax (`<iri>`, `_:b`, `"lex"^^<dt>`); `graph` is '' for the default graph. */
  quad(subject: string, predicate: string, object: string, graph: string): void;
  /** Awaited by the executor between input chunks; a sink that wants the producer to wait returns a promise. */
  drain?(): Promise<void> | void;
}

const FLUSH_AT = 1 << 16;

/** One N-Quads line (an N-Triples line when `graph` is '', the default graph). */
function nquadsLine(subject: string, predicate: string, object: string, graph: string): string {
  return graph === ''
    ? `${subject} ${predicate} ${object} .\n`
    : `${subject} ${predicate} ${object} ${graph} .\n`;
}

/** Ends `out`, resolving once it has flushed (rejecting with its error). */
export function endStream(out: Writable): Promise<void> {
  return new Promise((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/**
 * Writes N-Quads (N-Triples when every quad is in the default graph) to `out`, in batches.
 * Call `end()` when the run is over.
 */
export class NQuadsWriter implements QuadSink {
  private buffer = '';
  private readonly out: Writable;
  private readonly defaultGraphOnly: boolean;

  /** `defaultGraphOnly`: write N-Triples, dropping graph names (for `--format nt`). */
  constructor(out: Writable, options: { defaultGraphOnly?: boolean } = {}) {
    this.out = out;
    this.defaultGraphOnly = options.defaultGraphOnly ?? false;
  }

  quad(subject: string, predicate: string, object: string, graph: string): void {
    this.buffer += nquadsLine(subject, predicate, object, this.defaultGraphOnly ? '' : graph);
    if (this.buffer.length > FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.buffer === '') return;
    this.out.write(this.buffer);
    this.buffer = '';
  }

  drain(): Promise<void> | void {
    this.flush();
    if (!this.out.writableNeedDrain) return;
    return new Promise((resolve) => this.out.once('drain', resolve));
  }

  async end(): Promise<void> {
    this.flush();
    await endStream(this.out);
  }
}

/** Collects N-Quads text in memory (small outputs, tests). */
export class NQuadsCollector implements QuadSink {
  private readonly lines: string[] = [];

  quad(subject: string, predicate: string, object: string, graph: string): void {
    this.lines.push(nquadsLine(subject, predicate, object, graph));
  }

  text(): string {
    return this.lines.join('');
  }
}

const UNESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g;
const CHARS: Record<string, string> = {
  t: '\t',
  b: '\b',
  n: '\n',
  r: '\r',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(UNESCAPE, (_m, u4: string, u8: string, c: string) =>
    u4 || u8 ? String.fromCodePoint(parseInt(u4 || u8, 16)) : (CHARS[c] ?? c),
  );
}

/** An N-Triples term string as an RDF/JS term. */
export function parseTerm(term: string): RDF.Term {
  if (term.startsWith('<')) return DataFactory.namedNode(unescape(term.slice(1, -1)));
  if (term.startsWith('_:')) return DataFactory.blankNode(term.slice(2));
  const close = term.lastIndexOf('"');
  const lexical = unescape(term.slice(1, close));
  const suffix = term.slice(close + 1);
  if (suffix.startsWith('@')) return DataFactory.literal(lexical, suffix.slice(1));
  if (suffix.startsWith('^^'))
    return DataFactory.literal(lexical, DataFactory.namedNode(unescape(suffix.slice(3, -1))));
  return DataFactory.literal(lexical);
}

/** A sink that hands RDF/JS quads to `onQuad` (the formats module, a store, a test). */
export function rdfjsSink(onQuad: (quad: RDF.Quad) => void): QuadSink {
  return {
    quad(subject, predicate, object, graph) {
      onQuad(
        DataFactory.quad(
          parseTerm(subject) as RDF.Quad_Subject,
          parseTerm(predicate) as RDF.Quad_Predicate,
          parseTerm(object) as RDF.Quad_Object,
          graph === '' ? DataFactory.defaultGraph() : (parseTerm(graph) as RDF.Quad_Graph),
        ),
      );
    },
  };
}
