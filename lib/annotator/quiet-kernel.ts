// The quiet-row check in WebAssembly SIMD (quiet-rows.wat): the chunk's text is encoded as
// UTF-8 into the module's memory a window at a time, and the kernel takes whole rows from a
// row start for as long as each is one the row regex would take. Where the kernel stops, the
// regex looks at the row itself (quiet-rows.ts), so the kernel may be more careful than the
// regex, never less. One instance per thread, made at first use.
import { readFileSync } from 'node:fs';
import type { Sep } from './separators.ts';

/** UTF-16 units encoded at a time: a row longer than this is left to the regex. */
const WINDOW = 1 << 16;
const TABLE_AT = 0;
const STATES_AT = 64;
/** Bytes the kernel may read past a window's end (a block of 64, one byte of look-ahead). */
const SLACK = 128;
const PAGE = 65536;

/** Per column, as quiet-rows.wat reads it. */
export const KERNEL_STATE = { settled: 0, float: 1, int: 2 } as const;

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  rows: { value: number };
  stopped: { value: number };
  scan(
    p: number,
    end: number,
    sep: number,
    count: number,
    stripped: number,
    states: number,
    lastNumeric: number,
    table: number,
    commas: number,
  ): number;
  units(from: number, to: number): number;
}

let kernel: Exports | undefined;
let view = new Uint8Array(0);
/** The kernel whose table and column states are in memory (each QuietKernel has a number). */
let writer = 0;
let made = 0;
/** The window in memory (each encoding has a number; the kernel that made it knows it). */
let resident = 0;
let encodings = 0;
const encoder = new TextEncoder();

function instance(): Exports {
  if (!kernel) {
    const module = new WebAssembly.Module(readFileSync(new URL('./quiet-rows.wasm', import.meta.url)));
    kernel = new WebAssembly.Instance(module).exports as unknown as Exports;
  }
  return kernel;
}

function memoryFor(bytes: number): Uint8Array {
  const memory = instance().memory;
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  if (view.buffer !== memory.buffer) view = new Uint8Array(memory.buffer);
  return view;
}

export interface KernelRun {
  chars: number;
  lines: number;
  /** False when no complete row is left after the rows taken (the text ends in a partial one). */
  stopped: boolean;
}

/** The kernel's parameters for one part's column states. */
export class QuietKernel {
  private readonly sep: number;
  private readonly count: number;
  private readonly stripped: number;
  private readonly commas: number;
  private readonly states: Uint8Array;
  private readonly lastNumeric: number;
  private readonly table = new Uint8Array(16);
  private readonly textAt: number;
  private readonly id = ++made;
  /** Its last window: characters [start, end) of `text` as `bytes` bytes; `char` is at `byte`. */
  private readonly window = { token: 0, text: '', start: 0, end: 0, bytes: 0, ascii: true, char: 0, byte: 0 };

  /** `states` per column: KERNEL_STATE's codes. */
  constructor(sep: Sep, count: number, states: readonly number[]) {
    this.sep = sep.charCodeAt(0);
    this.count = count;
    this.stripped = sep === '\t' || sep === '|' ? 1 : 0;
    this.commas = sep === ',' ? 0 : 1;
    this.states = Uint8Array.from(states);
    this.lastNumeric = states.findLastIndex((state) => state !== KERNEL_STATE.settled);
    // Per low nibble a byte with another nibble (never equal), then the characters a quiet row
    // may not hold, less the separator (CR and colon are sorted out by the kernel).
    for (let nibble = 0; nibble < 16; nibble++) this.table[nibble] = 0xf0 | ((nibble + 1) & 15);
    for (const char of ['\t', '|', ';', ':', '"', '\r']) {
      const code = char.charCodeAt(0);
      if (code !== this.sep) this.table[code & 15] = code;
    }
    this.textAt = STATES_AT + Math.ceil((states.length + 1) / 64) * 64;
  }

  /** Quiet rows of `text` from `from` (a row start) on. */
  run(text: string, from: number): KernelRun {
    const exports = instance();
    let at = from;
    let lines = 0;
    let fresh = false;
    const window = this.window;
    for (;;) {
      const byte = this.locate(text, at, fresh);
      const memory = view;
      if (writer !== this.id) {
        memory.set(this.table, TABLE_AT);
        memory.set(this.states, STATES_AT);
        writer = this.id;
      }
      const stop = exports.scan(
        byte,
        this.textAt + window.bytes,
        this.sep,
        this.count,
        this.stripped,
        STATES_AT,
        this.lastNumeric,
        TABLE_AT,
        this.commas,
      );
      const rows = exports.rows.value;
      at += window.ascii ? stop - byte : exports.units(byte, stop);
      lines += rows;
      window.char = at;
      window.byte = stop;
      if (exports.stopped.value !== 0) return { chars: at - from, lines, stopped: true };
      if (window.end >= text.length) return { chars: at - from, lines, stopped: false };
      // A row longer than the window: the regex decides.
      if (rows === 0) return { chars: at - from, lines, stopped: true };
      fresh = true;
    }
  }

  /** The address of character `at` of `text`, encoding a window from there when needed. */
  private locate(text: string, at: number, fresh: boolean): number {
    const w = this.window;
    if (!fresh && w.token === resident && w.text === text && at >= w.start && at < w.end) {
      if (w.ascii) return this.textAt + at - w.start;
      if (at >= w.char) {
        // Only lines the caller took itself lie between: their bytes, counted by Node.
        w.byte += Buffer.byteLength(text.slice(w.char, at));
        w.char = at;
        return w.byte;
      }
    }
    const memory = memoryFor(this.textAt + 3 * WINDOW + SLACK);
    const slice = text.slice(at, at + WINDOW);
    const { read, written } = encoder.encodeInto(
      slice,
      memory.subarray(this.textAt, this.textAt + 3 * WINDOW),
    );
    resident = ++encodings;
    Object.assign(w, {
      token: resident,
      text,
      start: at,
      end: at + read,
      bytes: written,
      ascii: read === written,
      char: at,
      byte: this.textAt,
    });
    return this.textAt;
  }
}
