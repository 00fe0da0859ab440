// Offset commits of one group member. A record's offset+1 is marked only after its handler
// and those of every earlier record of its partition resolved (consumer.ts); marks are sent to the group coordinator one request at a time, and marks made
// while a request is in flight go together in the next one (the latest per partition). So an
// idle member commits each record at once, a busy one does not wait a round trip per record.
// A member reports a failed commit to kafkajs after each batch, and drains (awaits) its commits
// before it leaves the group.
import type { Offsets } from 'kafkajs';

export type Commit = (offsets: Offsets) => Promise<void>;

export class OffsetCommits {
  readonly #topic: string;
  readonly #marked = new Map<number, number>();
  #commit: Commit | undefined;
  #flushing: Promise<void> | undefined;
  #failure: unknown;

  /** `topic` is the cluster's topic name. */
  constructor(topic: string) {
    this.#topic = topic;
  }

  /** `nextOffset` of `partition` may be committed; `commit` is the member's current commit function. */
  mark(partition: number, nextOffset: number, commit: Commit): void {
    this.#marked.set(partition, nextOffset);
    this.#commit = commit;
    this.#flushing ??= this.#flush();
  }

  /** Resolves when every mark is committed; rejects if a commit failed (those records come again). */
  async drain(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    this.rethrow();
  }

  /** Throws, once, the failure of a commit that has ended, without waiting for the one in flight. */
  rethrow(): void {
    if (this.#failure === undefined) return;
    const failure = this.#failure;
    this.#failure = undefined;
    throw failure;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#marked.size > 0) {
        const partitions = [...this.#marked].map(([partition, offset]) => ({
          partition,
          offset: String(offset),
        }));
        this.#marked.clear();
        await this.#commit!({ topics: [{ topic: this.#topic, partitions }] });
      }
    } catch (error) {
      // Not committed: after the rejoin these records are delivered again (at-least-once).
      this.#marked.clear();
      this.#failure = error;
    } finally {
      this.#flushing = undefined;
    }
  }
}
