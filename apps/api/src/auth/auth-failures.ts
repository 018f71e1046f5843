import { Lru } from './api-key-cache';

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed authentications per client address, in fixed one-minute windows: past the budget, the address
 * is refused (429) until its window ends, so guessing keys (issued ones or `API_KEYS` entries) costs a
 * minute per budget and no database look-up. Counted in this process's memory, for at most `capacity`
 * addresses (the least recently seen are forgotten first).
 */
export class AuthFailureLimiter {
  private readonly windows: Lru<string, Window>;

  constructor(
    private readonly budgetPerMinute: number,
    capacity = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new Lru(capacity);
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const window = this.windows.get(address);
    if (!window || window.failures < this.budgetPerMinute) return 0;
    const left = window.startedAt + WINDOW_MS - this.now();
    if (left <= 0) return 0;
    return Math.ceil(left / 1000);
  }

  recordFailure(address: string): void {
    const now = this.now();
    const window = this.windows.get(address);
    if (!window || now - window.startedAt >= WINDOW_MS) this.windows.set(address, { startedAt: now, failures: 1 });
    else window.failures += 1;
  }
}
