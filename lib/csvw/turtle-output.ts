// describe's Turtle is written as bytes into off-heap buffers of CHUNK bytes (no string is
// joined), filled buffers handed on in order (descriptor-turtle.ts).

/** Bytes handed on per chunk. */
const CHUNK = 1 << 16;

/** Text written straight into off-heap buffers of CHUNK bytes (no string is joined). */
export class Output {
  private buffer = Buffer.allocUnsafeSlow(CHUNK);
  private used = 0;
  /** Filled chunks not yet handed on. */
  readonly filled: Buffer[] = [];

  text(piece: string): void {
    if (piece.length * 3 > CHUNK - this.used) {
      this.cut();
      if (piece.length * 3 > CHUNK) {
        this.filled.push(Buffer.from(piece));
        return;
      }
    }
    this.used += this.buffer.write(piece, this.used);
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

  cut(): void {
    if (this.used === 0) return;
    this.filled.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafeSlow(CHUNK);
    this.used = 0;
  }
}
