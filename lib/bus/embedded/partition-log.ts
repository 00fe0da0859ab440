// One partition of the embedded bus: an append-only NDJSON file, mirrored in memory.
// A process killed at any moment loses nothing it acknowledged: the line is written with a
// synchronous write before `append` returns (fsync too when LABLD_BUS_FSYNC is on). A torn
// last line from a crash mid-write is cut off when the log is opened again.
import {
  openSync,
  writeSync,
  closeSync,
  fdatasyncSync,
  readFileSync,
  existsSync,
  truncateSync,
  writeFileSync,
  renameSync,
} from 'node:fs';
import { EventEmitter } from 'node:events';
import type { OutgoingRecord, RawRecord } from '../contract.ts';

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

function toLine(record: RawRecord): string {
  const line: StoredLine = { o: record.offset, t: record.timestamp, k: record.key, h: record.headers };
  try {
    line.v = utf8.decode(record.value);
  } catch {
    line.b = record.value.toString('base64');
  }
  return `${JSON.stringify(line)}\n`;
}

/**
 * A value that is a view into a larger buffer (a chunk read, or Node's pool of small buffers),
 * copied into one of its own size: a record kept in memory held the whole buffer it was cut
 * from (a heap snapshot after the load bench: 100 MB of 64 KB buffers kept by records of a few
 * hundred bytes each).
 */
function compact(value: Buffer): Buffer {
  if (value.byteLength === value.buffer.byteLength) return value;
  const own = Buffer.allocUnsafeSlow(value.byteLength);
  value.copy(own);
  return own;
}

export class PartitionLog {
  readonly topic: string;
  readonly partition: number;
  readonly #fsync: boolean;
  readonly #records: RawRecord[] = [];
  readonly #appended = new EventEmitter();
  #startOffset = 0;
  #fd: number | null = null;
  /** A log in memory only: what each group has committed, below which nothing is kept (`release`). */
  readonly #released: Map<string, number> | undefined;

  /** `file` null keeps the log in memory only (per-instance reply topics). */
  constructor(
    topic: string,
    partition: number,
    file: string | null,
    options: { fsync: boolean; retentionMs: number },
  ) {
    this.topic = topic;
    this.partition = partition;
    this.#fsync = options.fsync;
    this.#appended.setMaxListeners(0);
    this.#released = file ? undefined : new Map();
    if (file) {
      this.#load(file, options.retentionMs);
      this.#fd = openSync(file, 'a');
    }
  }

  /** Offset of the oldest record kept. */
  get startOffset(): number {
    return this.#startOffset;
  }

  /** Offset the next record will get. */
  get endOffset(): number {
    return this.#startOffset + this.#records.length;
  }

  append(record: OutgoingRecord): RawRecord {
    const stored: RawRecord = {
      ...record,
      value: compact(record.value),
      topic: this.topic,
      partition: this.partition,
      offset: this.endOffset,
      timestamp: Date.now(),
    };
    if (this.#fd !== null) {
      writeSync(this.#fd, toLine(stored));
      if (this.#fsync) fdatasyncSync(this.#fd);
    }
    this.#records.push(stored);
    this.#appended.emit('record');
    return stored;
  }

  /** Records held in memory. */
  get held(): number {
    return this.#records.length;
  }

  /**
   * `group` has committed up to `offset`. A log in memory only (a process's reply topic) drops
   * what every group that committed on it has committed (a reply topic has one): nothing can replay it, and keeping every reply
   * held a process's memory growing with its traffic (issue 25, "under load": RSS 647 → 1,020 MB
   * and staying). A log on disk keeps its records for replay, as before.
   */
  release(group: string, offset: number): void {
    if (!this.#released) return;
    this.#released.set(group, offset);
    const upTo = Math.min(...this.#released.values(), this.endOffset);
    const drop = upTo - this.#startOffset;
    if (drop <= 0) return;
    this.#records.splice(0, drop);
    this.#startOffset = upTo;
  }

  read(offset: number): RawRecord | undefined {
    return this.#records[offset - this.#startOffset];
  }

  /** First offset whose record is at or after `timestamp` (the end offset if none). */
  offsetForTime(timestamp: number): number {
    const index = this.#records.findIndex((r) => r.timestamp >= timestamp);
    return index === -1 ? this.endOffset : this.#startOffset + index;
  }

  /** Resolves at the next append or when `signal` aborts. */
  waitForAppend(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        this.#appended.off('record', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.#appended.on('record', done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  #load(file: string, retentionMs: number): void {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    let good = 0;
    for (let start = 0; start < text.length;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break; // torn last line
      let line: StoredLine;
      try {
        line = JSON.parse(text.slice(start, end)) as StoredLine;
      } catch {
        break;
      }
      if (this.#records.length === 0) this.#startOffset = line.o;
      this.#records.push({
        topic: this.topic,
        partition: this.partition,
        offset: line.o,
        timestamp: line.t,
        key: line.k,
        headers: line.h,
        value: line.b !== undefined ? Buffer.from(line.b, 'base64') : Buffer.from(line.v ?? '', 'utf8'),
      });
      start = end + 1;
      good = Buffer.byteLength(text.slice(0, start));
    }
    if (good < Buffer.byteLength(text)) truncateSync(file, good);
    this.#applyRetention(file, retentionMs);
  }

  /**
   * Drop records older than the retention time (on open). Like Kafka's active segment, the
   * newest record is always kept, so the offset counter survives an all-expired log.
   */
  #applyRetention(file: string, retentionMs: number): void {
    if (!Number.isFinite(retentionMs) || this.#records.length === 0) return;
    const cutoff = Date.now() - retentionMs;
    const firstKept = this.#records.findIndex((r) => r.timestamp >= cutoff);
    const count = Math.min(firstKept === -1 ? this.#records.length : firstKept, this.#records.length - 1);
    if (count <= 0) return;
    this.#records.splice(0, count);
    this.#startOffset = this.#records[0]!.offset;
    writeFileSync(`${file}.tmp`, this.#records.map(toLine).join(''));
    renameSync(`${file}.tmp`, file);
  }
}
