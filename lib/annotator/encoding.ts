// Text encodings: the 30 names the original's `encoding` field accepts, decoding with
// iconv-lite (all 30; Node's TextDecoder lacks iso-8859-16) and `auto` detection in this
// order: byte-order mark, pure ASCII, strict UTF-8, then chardet's best guess. The original
// ran chardet on everything and so read short UTF-8 files with `°` as latin-1.
import { isAscii } from 'node:buffer';
import { analyse } from 'chardet';
import iconv from 'iconv-lite';
import { invalid } from '../process/errors.ts';

// prettier-ignore
export const ENCODINGS = [
  'auto', 'utf-8', 'ascii', 'iso-8859-1', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5',
  'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-9', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14',
  'iso-8859-15', 'iso-8859-16', 'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253',
  'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257', 'windows-1258', 'koi8-r', 'koi8-u',
  'mac-cyrillic', 'mac-roman',
] as const;

export type EncodingName = (typeof ENCODINGS)[number];

// The annotator's names (the original's: `latin-1`, `ascii`) → IANA charset names for HTTP.
const IANA: Readonly<Record<string, string>> = {
  'latin-1': 'iso-8859-1',
  ascii: 'us-ascii',
  'mac-cyrillic': 'x-mac-cyrillic',
  'mac-roman': 'macintosh',
};

/** The charset parameter (Content-Type) of text read in `encoding`. */
export function charsetName(encoding: string): string {
  return IANA[encoding] ?? encoding;
}

/** The `encoding` field checked: one of ENCODINGS (default auto), else 422 naming the field. */
export function checkEncoding(value: unknown): EncodingName {
  if (value === undefined || value === null || value === '') return 'auto';
  if (typeof value === 'string' && (ENCODINGS as readonly string[]).includes(value))
    return value as EncodingName;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw invalid(`encoding: unknown value ${shown}; allowed values are ${ENCODINGS.join(', ')}`, 'encoding');
}

/** Incremental bytes → text. `label` is what the descriptor's dialect.encoding says. */
export interface Decoder {
  label: string;
  write(bytes: Buffer): string;
  end(): string;
}

/** Thrown by the provisional UTF-8 decoder of `auto` when later bytes are not UTF-8. */
export class NotUtf8 extends Error {
  readonly sample: Buffer;
  /** Everything before was ASCII: the same text in any legacy encoding, so no restart needed. */
  readonly resumable: boolean;
  constructor(sample: Buffer, resumable: boolean) {
    super('not utf-8');
    this.sample = sample;
    this.resumable = resumable;
  }
}

function iconvDecoder(name: string, label: string): Decoder {
  const decoder = iconv.getDecoder(name);
  return { label, write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' };
}

/**
 * Strict UTF-8. In `auto` mode (`provisional`) the label starts as ascii and becomes utf-8 at
 * the first non-ASCII byte, and invalid bytes ask for a restart with a legacy encoding.
 */
function utf8Decoder(provisional: boolean): Decoder {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  const self: Decoder = {
    label: provisional ? 'ascii' : 'utf-8',
    write(bytes) {
      const asciiSoFar = self.label === 'ascii';
      if (provisional && asciiSoFar && !isAscii(bytes)) self.label = 'utf-8';
      try {
        const text = decoder.decode(bytes, { stream: true });
        offset += bytes.length;
        return text;
      } catch {
        if (provisional) throw new NotUtf8(bytes, asciiSoFar);
        throw invalid(
          `encoding: the file is not valid utf-8 (within bytes ${offset}–${offset + bytes.length}); choose its encoding or auto`,
          'encoding',
        );
      }
    },
    end() {
      try {
        return decoder.decode();
      } catch {
        if (provisional) throw new NotUtf8(Buffer.alloc(0), false);
        throw invalid(
          'encoding: the file ends inside a utf-8 character; choose its encoding or auto',
          'encoding',
        );
      }
    },
  };
  return self;
}

function asciiDecoder(): Decoder {
  let offset = 0;
  return {
    label: 'ascii',
    write(bytes) {
      const at = isAscii(bytes) ? -1 : highByteAt(bytes);
      if (at >= 0) {
        throw invalid(
          `encoding: the file is not ascii (byte 0x${(bytes[at] as number).toString(16)} at offset ${offset + at}); choose its encoding or auto`,
          'encoding',
        );
      }
      offset += bytes.length;
      return bytes.toString('latin1');
    },
    end: () => '',
  };
}

function highByteAt(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) >= 0x80) return i;
  return -1;
}

/** A decoder for an explicit encoding name. */
export function explicitDecoder(name: Exclude<EncodingName, 'auto'>): Decoder {
  if (name === 'utf-8') return utf8Decoder(false);
  if (name === 'ascii') return asciiDecoder();
  return iconvDecoder(name, name);
}

export interface Detected {
  decoder: Decoder;
  /** Whether a NUL byte is ordinary text (UTF-16) rather than a sign of a binary file. */
  wide: boolean;
}

/**
 * `auto` on the first bytes of the file: BOM, then strict UTF-8 (pure ASCII reported as
 * ascii, as chardet does), then chardet. `legacy` forces the chardet step (after a restart).
 */
export function detect(sample: Buffer, legacy = false): Detected {
  if (!legacy) {
    if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) {
      return { decoder: utf8Decoder(false), wide: false }; // TextDecoder drops the BOM
    }
    if (sample[0] === 0xff && sample[1] === 0xfe)
      return { decoder: iconvDecoder('utf-16le', 'utf-16le'), wide: true };
    if (sample[0] === 0xfe && sample[1] === 0xff)
      return { decoder: iconvDecoder('utf-16be', 'utf-16be'), wide: true };
    if (isUtf8Prefix(sample)) return { decoder: utf8Decoder(true), wide: false };
  }
  return { decoder: guessLegacy(sample), wide: false };
}

function isUtf8Prefix(sample: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

// chardet's single-byte guesses are ambiguous (research: 13 of 30 exact); among the legible
// ones its first that iconv-lite can decode wins, windows-1252 when none is usable.
function guessLegacy(sample: Buffer): Decoder {
  const candidates = analyse(sample);
  if (candidates.some((c) => c.name === 'Shift_JIS') && readsAsShiftJis(sample)) {
    return iconvDecoder('shift_jis', 'shift_jis'); // iconv-lite's shift_jis is CP932
  }
  for (const candidate of candidates) {
    const name = candidate.name.toLowerCase();
    if (name.startsWith('utf') || name.startsWith('iso-2022') || !iconv.encodingExists(name)) continue;
    return iconvDecoder(name, name === 'iso-8859-1' ? 'latin-1' : name);
  }
  return iconvDecoder('windows-1252', 'windows-1252');
}

/**
 * Whether `sample` is Japanese text in Shift_JIS (Windows' CP932): every byte above ASCII part
 * of a valid character, none of them in the user-defined area, and at least one two-byte
 * character whose both bytes are above ASCII (kanji, kana). chardet ranks a short CP932 file
 * with few Japanese words (a header line) below windows-1252 (98 against 40 for a logger's
 * export), whose reading is mojibake; Latin text is never valid CP932 with such a character
 * (an accented letter is followed by ASCII).
 */
function readsAsShiftJis(sample: Buffer): boolean {
  let wide = 0;
  let i = 0;
  for (; i < sample.length; i++) {
    const b = sample[i] as number;
    if (b < 0x80 || (b >= 0xa1 && b <= 0xdf)) continue; // ASCII, half-width katakana
    const lead = (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xef) || (b >= 0xfa && b <= 0xfc);
    if (!lead) return false;
    if (i + 1 === sample.length) break; // the sample ends inside a character
    const trail = sample[++i] as number;
    if (trail < 0x40 || trail === 0x7f || trail > 0xfc) return false;
    if (trail >= 0x80) wide++;
  }
  if (wide === 0) return false;
  return !/[\ufffd\ue000-\uf8ff]/u.test(iconv.decode(sample.subarray(0, i), 'shift_jis'));
}
