// Committed offsets of the embedded bus: one append-only journal per group and topic
// (`<partition> <next offset>` per line, the last line of a partition wins). An append is one
// small write, so committing after every message stays cheap; a torn last line from a crash
// is ignored, which at worst re-delivers one message (at-least-once). The journal is
// compacted when it is opened.
import {
  mkdirSync,
  readFileSync,
  writeFileSync,
  renameSync,
  existsSync,
  openSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';

interface Journal {
  offsets: Map<number, number>;
  fd: number | null;
}

export class OffsetStore {
  readonly #dir: string;
  readonly #journals = new Map<string, Journal>();

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /** The next offset the group will read in this partition, or undefined if it never committed. */
  committed(group: string, topic: string, partition: number): number | undefined {
    return this.#journal(group, topic, false).offsets.get(partition);
  }

  commit(group: string, topic: string, partition: number, nextOffset: number, persist: boolean): void {
    const journal = this.#journal(group, topic, persist);
    journal.offsets.set(partition, nextOffset);
    if (journal.fd !== null) writeSync(journal.fd, `${partition} ${nextOffset}\n`);
  }

  close(): void {
    for (const journal of this.#journals.values()) if (journal.fd !== null) closeSync(journal.fd);
    this.#journals.clear();
  }

  #journal(group: string, topic: string, persist: boolean): Journal {
    const id = `${group}\u0000${topic}`;
    let journal = this.#journals.get(id);
    if (!journal) {
      const file = this.#file(group, topic);
      const offsets = new Map<number, number>();
      if (existsSync(file)) {
        for (const [p, o] of readJournal(readFileSync(file, 'utf8'))) offsets.set(p, o);
        // Compact: rewrite the current offsets; later commits append to the fresh file.
        writeFileSync(`${file}.tmp`, [...offsets].map(([p, o]) => `${p} ${o}\n`).join(''));
        renameSync(`${file}.tmp`, file);
      }
      journal = { offsets, fd: null };
      this.#journals.set(id, journal);
    }
    if (persist && journal.fd === null) journal.fd = openSync(this.#file(group, topic), 'a');
    return journal;
  }

  #file(group: string, topic: string): string {
    return join(this.#dir, `${encodeURIComponent(group)}@${encodeURIComponent(topic)}.offsets`);
  }
}

function readJournal(text: string): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const line of text.split('\n')) {
    const match = /^(\d+) (\d+)$/.exec(line);
    if (match) offsets.set(Number(match[1]), Number(match[2]));
  }
  return offsets;
}
