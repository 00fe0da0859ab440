// The worker pool's waiting jobs, in two classes (issue 25, "under load"): requests someone
// waits for (the gateways' actions, a page's read) and background work (the chain's steps,
// which nobody waits for on a page). Under 50 clients uploading and reading on two workers, one
// FIFO queue put every page read behind a run of chain steps (the pages' p50 was 2.5 s). So a
// free worker takes the oldest request first, and a background job only while fewer than
// `backgroundRoom` background jobs run: one worker is always left for requests.

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
   * The job a free worker takes next, taken out: the oldest request, else the oldest background
   * job while fewer than `room` background jobs run (`running`); none otherwise.
   */
  take(running: number, room: number): J | undefined {
    let at = this.#jobs.findIndex((job) => !job.background);
    if (at < 0 && running < room) at = this.#jobs.findIndex((job) => job.background);
    return at < 0 ? undefined : this.#jobs.splice(at, 1)[0];
  }
}
