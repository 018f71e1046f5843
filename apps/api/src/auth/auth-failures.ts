import { LRUCache } from 'lru-cache';

const WINDOW_MS = 60_000;
/** A blocked address still gets one look-up a second: a valid key not cached yet can pass. */
const PROBE_EVERY_MS = 1_000;

interface Window {
  startedAt: number;
  failures: number;
  lastProbeAt: number;
}

/**
 * Failed authentications per client address, in fixed one-minute windows, in this process's memory.
 * A failure is reserved before the key is looked up and given back when the key is accepted, so that
 * requests arriving together cannot all be looked up before one of them is counted. Past the budget an
 * address is refused (429) until its window ends, but for one look-up a second (so a valid key still
 * passes). Addresses still under their budget and blocked ones are kept apart, `capacity` each: a flood
 * of addresses failing once forgets only others like them, never a blocked one.
 */
export class AuthFailureLimiter {
  private readonly counting: LRUCache<string, Window>;
  private readonly blocked: LRUCache<string, Window>;

  constructor(
    private readonly budgetPerMinute: number,
    capacity = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.counting = new LRUCache({ max: capacity });
    this.blocked = new LRUCache({ max: capacity });
  }

  /** Counts one failure for `address` ahead of its look-up: 0 when it may be looked up, else the seconds to wait. */
  reserve(address: string): number {
    const now = this.now();
    const blocked = this.blocked.get(address);
    if (blocked && now - blocked.startedAt < WINDOW_MS) {
      blocked.failures += 1;
      if (now - blocked.lastProbeAt >= PROBE_EVERY_MS) {
        blocked.lastProbeAt = now;
        return 0;
      }
      return Math.max(1, Math.ceil((blocked.startedAt + WINDOW_MS - now) / 1000));
    }
    if (blocked) this.blocked.delete(address);
    let window = this.counting.get(address);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, failures: 0, lastProbeAt: 0 };
      this.counting.set(address, window);
    }
    window.failures += 1;
    if (window.failures >= this.budgetPerMinute) {
      // The budget is spent with this look-up: later ones wait (the probe's clock starts now).
      window.lastProbeAt = now;
      this.counting.delete(address);
      this.blocked.set(address, window);
    }
    return 0;
  }

  /** Gives back a reservation: the key was accepted. */
  release(address: string): void {
    const window = this.counting.get(address) ?? this.blocked.get(address);
    if (window && window.failures > 0) window.failures -= 1;
    if (window && window.failures < this.budgetPerMinute && this.blocked.get(address) === window) {
      this.blocked.delete(address);
      this.counting.set(address, window);
    }
  }
}
