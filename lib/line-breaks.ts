// Old-Mac text files end their lines with CR alone. Line readers here cut at LF (CRLF lines
// keep their CR, which they strip), so such a file would be one long line. A file's first
// line break decides: a lone CR makes every CR (and CRLF) a LF from then on; LF or CRLF
// leave the text untouched, so ordinary files pay one check per chunk. A CR inside a quoted
// cell of a CR-only file becomes LF too: it was written as that file's line break.

export class LineBreaks {
  private mode: 'undecided' | 'lf' | 'cr' = 'undecided';
  /** Undecided, a CR ended the last chunk: held back until the next character tells CR from CRLF. */
  private heldCr = false;
  /** CR mode, the last chunk ended with a CR (written as LF): a LF starting the next is its CRLF's. */
  private endedWithCr = false;

  /** `chunk` with CR-only line breaks made LF; chunks go through in order. */
  normalize(chunk: string): string {
    if (this.mode === 'lf') return chunk;
    if (this.mode === 'undecided') {
      const text = this.heldCr ? `\r${chunk}` : chunk;
      this.heldCr = false;
      const cr = text.indexOf('\r');
      const lf = text.indexOf('\n');
      if (cr < 0 || (lf >= 0 && lf < cr)) {
        if (lf >= 0) this.mode = 'lf';
        return text;
      }
      if (cr === text.length - 1) {
        this.heldCr = true;
        return text.slice(0, cr);
      }
      this.mode = text.charCodeAt(cr + 1) === 10 ? 'lf' : 'cr';
      return this.mode === 'lf' ? text : this.toLf(text);
    }
    return this.toLf(chunk);
  }

  /** What is still held back at the end of the text. */
  end(): string {
    if (!this.heldCr) return '';
    this.heldCr = false;
    this.mode = 'cr';
    return '\n';
  }

  private toLf(chunk: string): string {
    if (chunk === '') return chunk;
    // A CRLF split across chunks: its LF was already written when the CR was.
    const text = this.endedWithCr && chunk.charCodeAt(0) === 10 ? chunk.slice(1) : chunk;
    this.endedWithCr = text.charCodeAt(text.length - 1) === 13;
    return text.replace(/\r\n?/g, '\n');
  }
}

/**
 * The lines of a text body: its LF count, or its CR count when it has no LF (old Mac), one more
 * when the last line has no line break.
 */
export async function countLines(
  body: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<number> {
  let lf = 0;
  let cr = 0;
  let last = -1;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.length === 0) continue;
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lf++;
    if (lf === 0) for (let at = bytes.indexOf(13); at >= 0; at = bytes.indexOf(13, at + 1)) cr++;
    last = bytes[bytes.length - 1] as number;
  }
  const breaks = lf > 0 ? lf : cr;
  return last < 0 ? 0 : breaks + (last === 10 || last === 13 ? 0 : 1);
}
