// One partition of the embedded bus: its records on disk (log-file.ts), and in memory only a
// window of the newest ones that its readers may still want soon: those not yet committed by
// every group that committed on it, and at most MEMORY_WINDOW_BYTES of them. Anything older
// is read from the file (a replay, a group far behind, a group that never committed here).
// A per-instance reply topic has no file: it keeps what a group has not committed.
import { EventEmitter } from 'node:events';
import type { OutgoingRecord, RawRecord } from '../contract.ts';
import { busHeldBytes } from '../../process/metrics.ts';
import { LogFile } from './log-file.ts';

/**
 * Bytes of records (values, plus RECORD_OVERHEAD each) a partition on disk keeps in memory at
 * most: a group working off a backlog, or a topic nobody reads (a dead-letter topic), reads the
 * older ones from the file.
 */
export const MEMORY_WINDOW_BYTES = 256 * 1024;
/** What a record holds beside its value (the object, key, headers), roughly. */
const RECORD_OVERHEAD = 256;

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

const sizeOf = (record: RawRecord) => record.value.byteLength + RECORD_OVERHEAD;

export class PartitionLog {
  readonly topic: string;
  readonly partition: number;
  /** The newest records, from offset #windowStart on. */
  readonly #window: RawRecord[] = [];
  #windowStart = 0;
  #windowBytes = 0;
  readonly #appended = new EventEmitter();
  readonly #file: LogFile | undefined;
  /** What each group has committed: below the lowest, nothing is kept in memory (`release`). */
  readonly #released = new Map<string, number>();

  /** `file` null keeps the log in memory only (per-instance reply topics). */
  constructor(
    topic: string,
    partition: number,
    file: string | null,
    options: { fsync: boolean; retentionMs: number },
  ) {
    this.topic = topic;
    this.partition = partition;
    this.#appended.setMaxListeners(0);
    if (file) {
      this.#file = new LogFile(topic, partition, file, options);
      this.#windowStart = this.#file.endOffset;
    }
  }

  /** Offset of the oldest record kept. */
  get startOffset(): number {
    return this.#file?.firstOffset ?? this.#windowStart;
  }

  /** Offset the next record will get. */
  get endOffset(): number {
    return this.#windowStart + this.#window.length;
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
    this.#file?.append(stored);
    this.#window.push(stored);
    this.#windowBytes += sizeOf(stored);
    this.#trim();
    this.#appended.emit('record');
    return stored;
  }

  /** Records held in memory. */
  get held(): number {
    return this.#window.length;
  }

  /** Bytes of the records held in memory (values, plus a rough overhead each). */
  get heldBytes(): number {
    return this.#windowBytes;
  }

  /**
   * `group` has committed up to `offset`: what every group that committed here has committed
   * leaves memory (a reply topic's records are gone then; nothing can replay them). A group
   * that never committed here holds nothing back: it reads from the file.
   */
  release(group: string, offset: number): void {
    this.#released.set(group, offset);
    this.#trim();
  }

  read(offset: number): RawRecord | undefined {
    if (offset >= this.#windowStart) return this.#window[offset - this.#windowStart];
    return this.#file?.read(offset);
  }

  /** First offset whose record is at or after `timestamp` (the end offset if none). */
  offsetForTime(timestamp: number): number {
    if (this.#file) return this.#file.offsetForTime(timestamp);
    const index = this.#window.findIndex((r) => r.timestamp >= timestamp);
    return index === -1 ? this.endOffset : this.#windowStart + index;
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
    this.#file?.close();
  }

  /** Drops from memory what every group committed, and (with a file to read) what passes the window. */
  #trim(): void {
    const committed = this.#released.size > 0 ? Math.min(...this.#released.values()) : this.#windowStart;
    let drop = Math.max(0, Math.min(committed, this.endOffset) - this.#windowStart);
    let bytes = this.#windowBytes;
    for (let i = 0; i < drop; i += 1) bytes -= sizeOf(this.#window[i]!);
    if (this.#file) {
      while (bytes > MEMORY_WINDOW_BYTES && drop < this.#window.length)
        bytes -= sizeOf(this.#window[drop++]!);
    }
    if (drop > 0) {
      this.#window.splice(0, drop);
      this.#windowStart += drop;
      this.#windowBytes = bytes;
    }
    busHeldBytes.labels({ topic: this.topic, partition: String(this.partition) }).set(this.#windowBytes);
  }
}
