// The worker pool's waiting jobs, in two classes (issue 25, "under load"): requests someone
// waits for (the gateways' actions, a page's read) and background work (the chain's steps,
// which nobody waits for on a page). Under 50 clients uploading and reading on two workers, one
// FIFO queue put every page read behind a run of chain steps (the pages' p50 was 2.5 s). So
// background jobs never hold more than `backgroundRoom` workers (one is always left for
// requests), and beyond the first running one they take a worker only when no request waits.
// The first is taken in its turn among the requests, so that the chain is never starved by a
// steady stream of reads (with requests strictly first, not one step ran in a 60 s bench).

export interface Queued {
  /** Background work: after every waiting request, on a bounded number of workers. */
  background: boolean;
}

/** Workers background jobs may hold at once in a pool of `size`: all but one (one of one). */
export function backgroundRoom(size: number): number {
  return Math.max(1, size - 1);
}

export class JobQueue<J extends Queued> {
  readonly #jobs: J[] = [];

  get length(): number {
    return this.#jobs.length;
  }

  push(job: J): void {
    this.#jobs.push(job);
  }

  /** Back at the front of its class (a job whose worker died under it runs next). */
  unshift(job: J): void {
    this.#jobs.unshift(job);
  }

  /** Takes `job` out; false when it was not waiting. */
  remove(job: J): boolean {
    const at = this.#jobs.indexOf(job);
    if (at < 0) return false;
    this.#jobs.splice(at, 1);
    return true;
  }

  /** Every waiting job, taken out. */
  drain(): J[] {
    return this.#jobs.splice(0);
  }

  /**
   * The job a free worker takes next, taken out, `running` background jobs running: with none
   * running, the oldest job; else the oldest request, or the oldest background job while fewer
   * than `room` run; none otherwise.
   */
  take(running: number, room: number): J | undefined {
    let at = running === 0 ? 0 : this.#jobs.findIndex((job) => !job.background);
    if (at < 0 && running < room) at = this.#jobs.findIndex((job) => job.background);
    return at < 0 ? undefined : this.#jobs.splice(at, 1)[0];
  }
}
