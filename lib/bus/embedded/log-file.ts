// The file of one partition of the embedded bus: append-only NDJSON, one record a line. In
// memory it is only an index (each record's byte position and timestamp, 16 bytes a record): a
// record is read back from the file by its offset (a replay, a group far behind), so the log of
// a long-running process is not mirrored in its memory (issue 25, "under load": the RSS after a
// load stayed far above its start). A process killed at any moment loses nothing it
// acknowledged: the line is written with a synchronous write before `append` returns (fsync too
// when LABLD_BUS_FSYNC is on). A torn last line from a crash mid-write is cut off at open.
import {
  openSync,
  writeSync,
  readSync,
  closeSync,
  fdatasyncSync,
  readFileSync,
  existsSync,
  truncateSync,
  writeFileSync,
  renameSync,
} from 'node:fs';
import type { RawRecord } from '../contract.ts';

interface StoredLine {
  o: number;
  t: number;
  k: string | null;
  h: Record<string, string>;
  /** utf-8 text when the bytes are valid utf-8, else `b` holds base64 */
  v?: string;
  b?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NEWLINE = 0x0a;

function toLine(record: RawRecord): Buffer {
  const line: StoredLine = { o: record.offset, t: record.timestamp, k: record.key, h: record.headers };
  try {
    line.v = utf8.decode(record.value);
  } catch {
    line.b = record.value.toString('base64');
  }
  return Buffer.from(`${JSON.stringify(line)}\n`);
}

function fromLine(topic: string, partition: number, line: StoredLine): RawRecord {
  return {
    topic,
    partition,
    offset: line.o,
    timestamp: line.t,
    key: line.k,
    headers: line.h,
    value: line.b !== undefined ? Buffer.from(line.b, 'base64') : Buffer.from(line.v ?? '', 'utf8'),
  };
}

export class LogFile {
  readonly topic: string;
  readonly partition: number;
  readonly #fsync: boolean;
  readonly #fd: number;
  /** Byte position of each record's line, the first record's at index 0. */
  readonly #positions: number[] = [];
  readonly #timestamps: number[] = [];
  #size = 0;
  #firstOffset = 0;

  /** Opens (or creates) `path`; records older than `retentionMs` are dropped (the newest kept). */
  constructor(
    topic: string,
    partition: number,
    path: string,
    options: { fsync: boolean; retentionMs: number },
  ) {
    this.topic = topic;
    this.partition = partition;
    this.#fsync = options.fsync;
    if (existsSync(path)) this.#index(path, options.retentionMs);
    // Read and append through one descriptor: positional reads, appends at the end.
    this.#fd = openSync(path, 'a+');
  }

  /** Offset of the first record in the file. */
  get firstOffset(): number {
    return this.#firstOffset;
  }

  /** Offset the next record will get. */
  get endOffset(): number {
    return this.#firstOffset + this.#positions.length;
  }

  append(record: RawRecord): void {
    if (this.#positions.length === 0) this.#firstOffset = record.offset;
    const line = toLine(record);
    writeSync(this.#fd, line);
    if (this.#fsync) fdatasyncSync(this.#fd);
    this.#positions.push(this.#size);
    this.#timestamps.push(record.timestamp);
    this.#size += line.byteLength;
  }

  /** The record at `offset`, read from the file; undefined outside the file. */
  read(offset: number): RawRecord | undefined {
    const index = offset - this.#firstOffset;
    if (index < 0 || index >= this.#positions.length) return undefined;
    const start = this.#positions[index]!;
    const end = this.#positions[index + 1] ?? this.#size;
    const bytes = Buffer.allocUnsafe(end - start);
    readSync(this.#fd, bytes, 0, bytes.byteLength, start);
    const line = JSON.parse(bytes.toString('utf8', 0, bytes.byteLength - 1)) as StoredLine;
    return fromLine(this.topic, this.partition, line);
  }

  /** First offset whose record is at or after `timestamp` (the end offset if none). */
  offsetForTime(timestamp: number): number {
    const index = this.#timestamps.findIndex((t) => t >= timestamp);
    return index === -1 ? this.endOffset : this.#firstOffset + index;
  }

  close(): void {
    closeSync(this.#fd);
  }

  /** Reads the file once for its index; cuts a torn last line off and applies the retention. */
  #index(path: string, retentionMs: number): void {
    const bytes = readFileSync(path);
    let good = 0;
    for (let start = 0; start < bytes.byteLength;) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end === -1) break; // torn last line
      let line: StoredLine;
      try {
        line = JSON.parse(bytes.toString('utf8', start, end)) as StoredLine;
      } catch {
        break;
      }
      if (this.#positions.length === 0) this.#firstOffset = line.o;
      this.#positions.push(start);
      this.#timestamps.push(line.t);
      start = end + 1;
      good = start;
    }
    if (good < bytes.byteLength) truncateSync(path, good);
    this.#size = good;
    this.#applyRetention(path, bytes, retentionMs);
  }

  /**
   * Drops records older than the retention time (at open). Like Kafka's active segment, the
   * newest record is always kept, so the offset counter survives an all-expired log.
   */
  #applyRetention(path: string, bytes: Buffer, retentionMs: number): void {
    const held = this.#positions.length;
    if (!Number.isFinite(retentionMs) || held === 0) return;
    const cutoff = Date.now() - retentionMs;
    const firstKept = this.#timestamps.findIndex((t) => t >= cutoff);
    const count = Math.min(firstKept === -1 ? held : firstKept, held - 1);
    if (count <= 0) return;
    const from = this.#positions[count]!;
    writeFileSync(`${path}.tmp`, bytes.subarray(from, this.#size));
    renameSync(`${path}.tmp`, path);
    this.#positions.splice(0, count);
    this.#timestamps.splice(0, count);
    for (let i = 0; i < this.#positions.length; i += 1) this.#positions[i]! -= from;
    this.#size -= from;
    this.#firstOffset += count;
  }
}
