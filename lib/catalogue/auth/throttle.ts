// A brake on password guessing at the login form, in process memory. Failed logins are counted
// per user name at one client address, and per client address; past a few free failures, each
// further one closes that key for a delay that doubles (1 s, 2 s, 4 s … up to a cap), and an
// attempt on a closed key is refused before the password is checked, so a guesser gets a few
// tries a minute whatever it sends in parallel. Counts are forgotten after a quiet window. A
// success clears its name's count at its address (not the address's: an attacker's own good
// login must not reset its guessing budget).
//
// Not per name alone: a guesser anywhere could then lock the real user out (issue 25). The
// user, from another address, logs in meanwhile; a guesser spread over many addresses gets the
// free failures of each, which the address count bounds per address.
//
// Names are counted whether they exist or not, so a refusal says nothing about which do. The
// counts live in one process: a scale-out deployment with N gateway copies gives a guesser up to
// N times the rate (shared state in Redis is a later issue).

export interface ThrottleRule {
  /** Failures that cost nothing. */
  readonly free: number;
  /** The first delay after the free ones, in ms; it doubles with each further failure. */
  readonly baseMs: number;
  readonly maxMs: number;
}

export interface ThrottleOptions {
  /** Failures of one name from one address. */
  readonly nameAtAddress?: ThrottleRule;
  readonly address?: ThrottleRule;
  /** A key without a failure for this long starts again from zero. */
  readonly forgetAfterMs?: number;
  /** Most keys kept per kind; the oldest go first (memory stays bounded under a flood). */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

export const NAME_AT_ADDRESS_RULE: ThrottleRule = { free: 5, baseMs: 1000, maxMs: 5 * 60_000 };
// One address may be a whole lab behind NAT: more free failures before it slows down.
export const ADDRESS_RULE: ThrottleRule = { free: 20, baseMs: 1000, maxMs: 5 * 60_000 };

interface Count {
  failures: number;
  last: number;
  closedUntil: number;
}

class Counter {
  readonly #counts = new Map<string, Count>();
  readonly #rule: ThrottleRule;
  readonly #forgetAfterMs: number;
  readonly #maxKeys: number;

  constructor(rule: ThrottleRule, forgetAfterMs: number, maxKeys: number) {
    this.#rule = rule;
    this.#forgetAfterMs = forgetAfterMs;
    this.#maxKeys = maxKeys;
  }

  #live(key: string, now: number): Count | undefined {
    const count = this.#counts.get(key);
    if (count && now - count.last > this.#forgetAfterMs && now >= count.closedUntil) {
      this.#counts.delete(key);
      return undefined;
    }
    return count;
  }

  /** Ms until `key` may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    return Math.max(0, (this.#live(key, now)?.closedUntil ?? 0) - now);
  }

  fail(key: string, now: number): void {
    const count = this.#live(key, now) ?? { failures: 0, last: now, closedUntil: 0 };
    count.failures += 1;
    count.last = now;
    const over = count.failures - this.#rule.free;
    if (over > 0) {
      count.closedUntil = now + Math.min(this.#rule.maxMs, this.#rule.baseMs * 2 ** Math.min(over - 1, 30));
    }
    // Re-inserted so that Map order is least recently failed first.
    this.#counts.delete(key);
    this.#counts.set(key, count);
    while (this.#counts.size > this.#maxKeys) this.#counts.delete(this.#counts.keys().next().value!);
  }

  clear(key: string): void {
    this.#counts.delete(key);
  }
}

export class LoginThrottle {
  readonly #namesAtAddresses: Counter;
  readonly #addresses: Counter;
  readonly #now: () => number;

  constructor(options: ThrottleOptions = {}) {
    const forget = options.forgetAfterMs ?? 15 * 60_000;
    const maxKeys = options.maxKeys ?? 10_000;
    this.#namesAtAddresses = new Counter(options.nameAtAddress ?? NAME_AT_ADDRESS_RULE, forget, maxKeys);
    this.#addresses = new Counter(options.address ?? ADDRESS_RULE, forget, maxKeys);
    this.#now = options.now ?? Date.now;
  }

  /** Ms the attempt must wait (refuse it, saying so); 0 when it may be checked now. */
  waitMs(name: string, address: string): number {
    const now = this.#now();
    return Math.max(
      this.#namesAtAddresses.waitMs(key(name, address), now),
      this.#addresses.waitMs(address, now),
    );
  }

  failed(name: string, address: string): void {
    const now = this.#now();
    this.#namesAtAddresses.fail(key(name, address), now);
    this.#addresses.fail(address, now);
  }

  succeeded(name: string, address: string): void {
    this.#namesAtAddresses.clear(key(name, address));
  }
}

// Names are compared as the login compares them; case-folded so that `Ada` and `ada` share a count.
function key(name: string, address: string): string {
  return `${name.trim().toLowerCase().slice(0, 200)}\n${address}`;
}
