// Committed offsets of the embedded bus: one small JSON file per group and topic, replaced
// atomically (write, then rename) so that a crash leaves either the old or the new offsets.
import { mkdirSync, readFileSync, writeFileSync, renameSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export class OffsetStore {
  readonly #dir: string;
  readonly #cache = new Map<string, Record<string, number>>();

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /** The next offset the group will read in this partition, or undefined if it never committed. */
  committed(group: string, topic: string, partition: number): number | undefined {
    return this.#load(group, topic)[partition];
  }

  commit(group: string, topic: string, partition: number, nextOffset: number, persist: boolean): void {
    const offsets = this.#load(group, topic);
    offsets[partition] = nextOffset;
    if (!persist) return;
    const file = this.#file(group, topic);
    writeFileSync(`${file}.tmp`, JSON.stringify(offsets));
    renameSync(`${file}.tmp`, file);
  }

  #load(group: string, topic: string): Record<string, number> {
    const id = `${group}\u0000${topic}`;
    let offsets = this.#cache.get(id);
    if (!offsets) {
      const file = this.#file(group, topic);
      offsets = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>) : {};
      this.#cache.set(id, offsets);
    }
    return offsets;
  }

  #file(group: string, topic: string): string {
    return join(this.#dir, `${encodeURIComponent(group)}@${encodeURIComponent(topic)}.json`);
  }
}
