import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AuthFailureLimiter } from './auth-failures';
import { RedisCircuit, RedisUnavailableError } from './redis-circuit';

/** A failure counted ahead of a look-up: `release` gives it back once the key is accepted. */
export interface Reservation {
  /** 0: go ahead; else the seconds the address must wait (429). */
  retryAfterSeconds: number;
  release(): void;
}

const NOTHING: Reservation = { retryAfterSeconds: 0, release: () => undefined };

// Atomic: count the failure, start the minute on the first, and past the budget allow one probe a second.
const RESERVE = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], 60000) end
local budget = tonumber(ARGV[1])
if failures < budget then return 0 end
if failures == budget then redis.call('SET', KEYS[2], '1', 'PX', 1000) return 0 end
if redis.call('SET', KEYS[2], '1', 'PX', 1000, 'NX') then return 0 end
return math.max(1, redis.call('PTTL', KEYS[1]))`;
const RELEASE = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end`;

/**
 * The failed-authentication budget of every client address (AUTH_FAILURES_PER_MINUTE; see
 * AuthFailureLimiter for the rules). Counted in Redis when REDIS_URL is set, so that every instance and
 * worker shares one count; while Redis fails, in this process's memory (fail open to a per-process count).
 */
export class FailureBudget implements OnApplicationShutdown {
  private readonly logger = new Logger('AuthFailures');
  private readonly memory?: AuthFailureLimiter;
  /** Addresses this process saw refused, and until when (see refusedFor). */
  private readonly refusedUntil = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly budgetPerMinute: number,
    private readonly circuit?: RedisCircuit,
  ) {
    if (budgetPerMinute > 0) this.memory = new AuthFailureLimiter(budgetPerMinute);
  }

  get enabled(): boolean {
    return this.memory !== undefined;
  }

  /**
   * The seconds `address` is still refused as far as this process has seen (0: not refused), counting
   * nothing: the body reader asks it so that a refused address's body is never read.
   */
  refusedFor(address: string): number {
    const until = this.refusedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.refusedUntil.delete(address);
    return 0;
  }

  async reserve(address: string): Promise<Reservation> {
    const reservation = await this.reserveIn(address);
    if (reservation.retryAfterSeconds > 0) this.refusedUntil.set(address, Date.now() + reservation.retryAfterSeconds * 1000);
    return reservation;
  }

  private async reserveIn(address: string): Promise<Reservation> {
    if (!this.memory) return NOTHING;
    if (this.circuit) {
      const keys = [`petstore:authfail:${address}`, `petstore:authprobe:${address}`];
      try {
        const waitMs = (await this.circuit.call((redis) => redis.eval(RESERVE, 2, ...keys, this.budgetPerMinute))) as number;
        if (waitMs > 0) return { retryAfterSeconds: Math.ceil(waitMs / 1000), release: () => undefined };
        return { retryAfterSeconds: 0, release: () => void this.circuit!.call((redis) => redis.eval(RELEASE, 1, keys[0])).catch(() => undefined) };
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
        if (error.outageStarted) this.logger.warn(`failed authentications counted in this process only, ${error.message}`);
      }
    }
    const memory = this.memory;
    const retryAfterSeconds = memory.reserve(address);
    const release = () => {
      if (retryAfterSeconds === 0) memory.release(address);
    };
    return { retryAfterSeconds, release };
  }

  onApplicationShutdown(): void {
    this.circuit?.disconnect();
  }
}
