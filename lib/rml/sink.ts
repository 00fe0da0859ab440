// Where quads go. The executor hands every quad to a QuadSink as four N-Triples term strings
// (graph '' = default graph). Sinks here: an N-Quads/N-Triples writer of UTF-8 bytes, for a
// stream (with backpressure) or for memory, and an adapter to RDF/JS quads for everything
// else — the seam for the shared formats module (Turtle, JSON-LD, …).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { ByteOutput } from '../byte-output.ts';
import { isPlainLexical, literalTerm } from './terms.ts';

export interface QuadSink {
  /** Terms in N-Triples syntax (`<iri>`, `_:b`, `"lex"^^<dt>`); `graph` is '' for the default graph. */
  quad(subject: string, predicate: string, object: string, graph: string): void;
  /**
   * The quad whose object is the simple literal of `lexical` (`quad(subject, predicate,
   * literalTerm(lexical), graph)`), for a sink that writes the lexical form as it is.
   */
  literal?(subject: string, predicate: string, lexical: string, graph: string): void;
  /** Awaited by the executor between input chunks; a sink that wants the producer to wait returns a promise. */
  drain?(): Promise<void> | void;
}

/** Ends `out`, resolving once it has flushed (rejecting with its error). */
export function endStream(out: Writable): Promise<void> {
  return new Promise((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

const ENCODER = new TextEncoder();
/** Predicates and graphs whose bytes are kept (a mapping's constants; templated ones past it are encoded each time). */
const KEPT_TERMS = 1024;

/**
 * N-Quads lines (N-Triples lines for the default graph) as UTF-8 bytes in off-heap chunks.
 * Predicates and graphs (mostly a mapping's constants) are encoded once and copied at each
 * use; the subject that a record's quads share is encoded once for them; objects as they come.
 */
class NQuadsBytes implements QuadSink {
  protected readonly bytes = new ByteOutput();
  private readonly defaultGraphOnly: boolean;
  private readonly kept = new Map<string, Uint8Array>();
  private subject: string | undefined;
  private scratch = new Uint8Array(1024);
  private subjectBytes = this.scratch.subarray(0, 0);

  constructor(defaultGraphOnly: boolean) {
    this.defaultGraphOnly = defaultGraphOnly;
  }

  quad(subject: string, predicate: string, object: string, graph: string): void {
    this.head(subject, predicate);
    this.bytes.text(object);
    this.tail(graph);
  }

  literal(subject: string, predicate: string, lexical: string, graph: string): void {
    if (!isPlainLexical(lexical)) {
      this.quad(subject, predicate, literalTerm(lexical), graph);
      return;
    }
    this.head(subject, predicate);
    const bytes = this.bytes;
    bytes.text('"');
    bytes.text(lexical);
    if (graph === '' || this.defaultGraphOnly) bytes.text('" .\n');
    else {
      bytes.text('"');
      this.tail(graph);
    }
  }

  private head(subject: string, predicate: string): void {
    if (subject !== this.subject) this.encodeSubject(subject);
    this.bytes.bytes(this.subjectBytes);
    this.term(predicate);
  }

  private tail(graph: string): void {
    if (graph === '' || this.defaultGraphOnly) this.bytes.text(' .\n');
    else {
      this.bytes.text(' ');
      this.term(graph);
      this.bytes.text('.\n');
    }
  }

  /** `<subject> ` into the scratch bytes, kept while the next quads have the same subject. */
  private encodeSubject(subject: string): void {
    this.subject = subject;
    if (subject.length * 3 + 1 > this.scratch.length) this.scratch = new Uint8Array(subject.length * 3 + 1);
    const written = ENCODER.encodeInto(subject, this.scratch).written;
    this.scratch[written] = 32;
    this.subjectBytes = this.scratch.subarray(0, written + 1);
  }

  /** A predicate or graph and the space after it, from its kept bytes where it has them. */
  private term(term: string): void {
    let kept = this.kept.get(term);
    if (kept === undefined) {
      if (this.kept.size >= KEPT_TERMS) {
        this.bytes.text(term);
        this.bytes.text(' ');
        return;
      }
      this.kept.set(term, (kept = Buffer.from(`${term} `)));
    }
    this.bytes.bytes(kept);
  }
}

/** Output bytes a writer lets its stream hold before the run waits (a 1 MB CSV chunk makes about 6 MB). */
const BACKLOG = 16 << 20;

/**
 * Writes N-Quads (N-Triples when every quad is in the default graph) to `out`, a chunk at a
 * time. Call `end()` when the run is over.
 */
export class NQuadsWriter extends NQuadsBytes {
  private readonly out: Writable;

  /** `defaultGraphOnly`: write N-Triples, dropping graph names (for `--format nt`). */
  constructor(out: Writable, options: { defaultGraphOnly?: boolean } = {}) {
    super(options.defaultGraphOnly ?? false);
    this.out = out;
  }

  override quad(subject: string, predicate: string, object: string, graph: string): void {
    super.quad(subject, predicate, object, graph);
    if (this.bytes.filled.length > 0) this.flush();
  }

  override literal(subject: string, predicate: string, lexical: string, graph: string): void {
    super.literal(subject, predicate, lexical, graph);
    if (this.bytes.filled.length > 0) this.flush();
  }

  private flush(): void {
    const bytes = this.bytes;
    // A file stream is done with a chunk when its write calls back; other streams may keep it.
    if (this.out instanceof WriteStream)
      for (const chunk of bytes.filled.splice(0)) this.out.write(chunk, () => bytes.recycle(chunk));
    else for (const chunk of bytes.filled.splice(0)) this.out.write(chunk);
  }

  /**
   * Waits for the stream only past BACKLOG bytes not yet written. Below it, lets the stream's
   * callbacks run and goes on: the stream writes (on libuv's threads) while the next input
   * chunk is mapped, instead of the run waiting for each chunk's output to be written.
   */
  drain(): Promise<void> {
    this.flush();
    if (this.out.writableLength > BACKLOG) return new Promise((resolve) => this.out.once('drain', resolve));
    return new Promise((resolve) => setImmediate(resolve));
  }

  async end(): Promise<void> {
    this.bytes.cut();
    this.flush();
    await endStream(this.out);
  }
}

/** Collects N-Quads text in memory (small outputs, tests). */
export class NQuadsCollector extends NQuadsBytes {
  constructor() {
    super(false);
  }

  text(): string {
    this.bytes.cut();
    return Buffer.concat(this.bytes.filled).toString('utf8');
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
