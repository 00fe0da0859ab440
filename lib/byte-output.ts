// Text written as UTF-8 straight into off-heap chunks of CHUNK bytes, for writers of large
// outputs (describe's Turtle, the RML engine's N-Triples/N-Quads): no string is joined and
// nothing is encoded twice (issue 29: joined line strings, then Buffer.from at each write, were
// about a fifth of an RML run's CPU and much of its garbage). Short ASCII pieces — most of an
// RDF line — are copied by a loop: a call into Buffer#write costs more than the copy for them.
// A writer hands on `filled` chunks as it goes (with its stream's backpressure), and may hand
// them back once written.

/** Bytes handed on per chunk. */
export const CHUNK = 1 << 16;

/** Pieces up to this length go through the copying loop; longer ones through Buffer#write. */
const SHORT = 64;

/**
 * Recycled chunks kept at most (32 MB): about what a writer's stream holds unwritten at once
 * (lib/rml/sink.ts lets it reach 16 MB, and a 1 MB CSV chunk adds about 6 MB), so that a long run
 * stops allocating (16 kept: peak RSS 175-208 MB for 100K x 20 rows, 512: 149-173 MB).
 */
const SPARE = 512;

export class ByteOutput {
  private buffer = Buffer.allocUnsafeSlow(CHUNK);
  private used = 0;
  /** Filled chunks not yet handed on. */
  readonly filled: Buffer[] = [];
  /** Chunks handed back by `recycle`. */
  private readonly free: Buffer<ArrayBuffer>[] = [];

  /** `piece` as UTF-8 (a lone surrogate as U+FFFD, as Buffer#write and TextEncoder write it). */
  text(piece: string): void {
    const length = piece.length;
    if (length * 3 > CHUNK - this.used) {
      this.cut();
      if (length * 3 > CHUNK) {
        this.filled.push(Buffer.from(piece));
        return;
      }
    }
    const buffer = this.buffer;
    let used = this.used;
    if (length <= SHORT) {
      for (let i = 0; i < length; i++) {
        const code = piece.charCodeAt(i);
        if (code >= 0x80) {
          this.used = used + buffer.write(i === 0 ? piece : piece.slice(i), used);
          return;
        }
        buffer[used++] = code;
      }
      this.used = used;
      return;
    }
    this.used = used + buffer.write(piece, used);
  }

  /** Bytes encoded earlier (a term written once, copied at each use). */
  bytes(bytes: Uint8Array): void {
    const length = bytes.length;
    if (length > CHUNK - this.used) {
      this.cut();
      if (length > CHUNK) {
        this.filled.push(Buffer.from(bytes));
        return;
      }
    }
    // TypedArray#set copies even a short term about twice as fast as a loop does.
    this.buffer.set(bytes, this.used);
    this.used += length;
  }

  /** A non-negative integer's digits, without making its string. */
  int(value: number): void {
    if (CHUNK - this.used < 24) this.cut();
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    let at = (this.used += digits);
    let rest = value;
    do {
      this.buffer[--at] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** One ASCII character. */
  byte(code: number): void {
    if (this.used === CHUNK) this.cut();
    this.buffer[this.used++] = code;
  }

  /** The characters of `text` from `start` to `end` but the one at `skip`: ASCII digits. */
  ascii(text: string, start: number, end: number, skip: number): void {
    if (CHUNK - this.used < end - start) this.cut();
    for (let k = start; k < end; k++) if (k !== skip) this.buffer[this.used++] = text.charCodeAt(k);
  }

  /** Ends the current chunk (if it holds anything): what was written is all in `filled`. */
  cut(): void {
    if (this.used === 0) return;
    this.filled.push(this.buffer.subarray(0, this.used));
    this.buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    this.used = 0;
  }

  /**
   * A chunk of `filled` that its reader is done with (a file stream's write callback), to be
   * written over: a long run then reuses a few chunks instead of allocating one per 64 KB.
   */
  recycle(chunk: Uint8Array): void {
    if (chunk.buffer.byteLength === CHUNK && this.free.length < SPARE)
      this.free.push(Buffer.from(chunk.buffer as ArrayBuffer, 0, CHUNK));
  }
}
