// A page of a stored text file's lines, read from the blob as a stream: the lines before the page
// are counted and dropped, the page's lines kept (each cut at a named length), and the rest only
// counted up to a named number of bytes. The file is never held whole, whatever its size.
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

/** Lines on one page of a file's text view. */
export const LINES_PER_PAGE = 200;
/** A line longer than this (a minified JSON-LD document) is shown cut, with how much was left out. */
export const LINE_CHARACTER_LIMIT = 2000;
/** Past the page, lines are counted up to this many bytes; beyond it the total is "more than". */
export const LINE_COUNT_SCAN_BYTES = 64 * 1024 * 1024;
/** Bytes read to decide between UTF-8 and a single-byte encoding. */
const SNIFF_BYTES = 64 * 1024;

export interface FileLine {
  /** 1-based. */
  number: number;
  text: string;
  /** Characters left out past LINE_CHARACTER_LIMIT. */
  cut?: number;
}

export interface FileLinesPage {
  lines: FileLine[];
  /** 1-based page number. */
  page: number;
  perPage: number;
  /** Lines of the whole file, when counted within LINE_COUNT_SCAN_BYTES. */
  total?: number;
  /** Lines counted so far when the count stopped at LINE_COUNT_SCAN_BYTES (the file has more). */
  atLeast?: number;
  /** The decoding used: UTF-8, or windows-1252 for a file that is not valid UTF-8. */
  encoding: 'utf-8' | 'windows-1252';
}

/** UTF-8 when the file's first bytes are valid UTF-8 (a character cut by the sniff's end aside). */
async function encodingOf(path: string): Promise<FileLinesPage['encoding']> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path, { start: 0, end: SNIFF_BYTES - 1 }))
    chunks.push(chunk as Buffer);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks), { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** One line's bytes, kept only up to what is shown (a UTF-8 character is at most 4 bytes). */
class LineBuffer {
  #parts: Buffer[] = [];
  #kept = 0;
  #dropped = 0;
  add(bytes: Buffer): void {
    const room = LINE_CHARACTER_LIMIT * 4 - this.#kept;
    if (room > 0) {
      const part = bytes.subarray(0, room);
      this.#parts.push(part);
      this.#kept += part.length;
    }
    this.#dropped += Math.max(0, bytes.length - Math.max(room, 0));
  }
  take(number: number, decoder: TextDecoder): FileLine {
    let text = decoder.decode(Buffer.concat(this.#parts)).replace(/\r$/, '');
    let cut = 0;
    if (text.length > LINE_CHARACTER_LIMIT) {
      cut = text.length - LINE_CHARACTER_LIMIT;
      text = text.slice(0, LINE_CHARACTER_LIMIT);
    }
    // Bytes never decoded are counted as characters: near enough for "… more".
    cut += this.#dropped;
    this.#parts = [];
    this.#kept = 0;
    this.#dropped = 0;
    return cut > 0 ? { number, text, cut } : { number, text };
  }
}

/** Page `page` (1-based) of the text file at `path`, `perPage` lines a page. */
export async function fileLines(
  path: string,
  page: number,
  perPage = LINES_PER_PAGE,
): Promise<FileLinesPage> {
  const encoding = await encodingOf(path);
  const decoder = new TextDecoder(encoding);
  const first = (page - 1) * perPage + 1;
  const last = first + perPage - 1;
  const lines: FileLine[] = [];
  const line = new LineBuffer();
  let number = 1;
  let pastPage = 0;
  let partial = false;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let at = 0;
      for (;;) {
        const end = chunk.indexOf(10, at);
        const inPage = number >= first && number <= last;
        if (end < 0) {
          if (inPage) line.add(chunk.subarray(at));
          partial = at < chunk.length || partial;
          break;
        }
        if (inPage) {
          line.add(chunk.subarray(at, end));
          lines.push(line.take(number, decoder));
        }
        number += 1;
        partial = false;
        at = end + 1;
      }
      if (number > last) pastPage += chunk.length;
      if (number > last && pastPage > LINE_COUNT_SCAN_BYTES) {
        return { lines, page, perPage, atLeast: number - 1, encoding };
      }
    }
  } finally {
    stream.destroy();
  }
  // A last line without its line break is still a line.
  if (partial && number >= first && number <= last) lines.push(line.take(number, decoder));
  return { lines, page, perPage, total: partial ? number : number - 1, encoding };
}
