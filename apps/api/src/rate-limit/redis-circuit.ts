import { Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Count } from '../observability/metrics';

export interface RedisOutcomes {
  ok: Count;
  failed: Count;
  skipped: Count;
}

/** A count that did not happen: Redis failed, or the circuit is open. The guard lets the request through. */
export class RedisUnavailableError extends Error {
  constructor(
    message: string,
    /** The first failure of an outage: the guard logs it (with its request's id), and no other. */
    readonly outageStarted: boolean,
  ) {
    super(message);
  }
}

const FAILURES_TO_OPEN = 3;
const OPEN_MS = 5_000;

/**
 * The Redis storage behind a circuit breaker: after 3 failures in a row (an error, or no answer within
 * ioredis's 500 ms command timeout) Redis is not asked for 5 s, so requests do not each wait for the
 * timeout; then one count tries again. The end of an outage is logged here, with what it cost.
 */
export class RedisCircuitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private failuresInARow = 0;
  private openUntil = 0;
  private outage?: { since: number; failed: number; skipped: number };

  constructor(
    private readonly redis: ThrottlerStorage & OnModuleDestroy,
    private readonly outcomes: RedisOutcomes,
  ) {}

  async increment(...args: Parameters<ThrottlerStorage['increment']>): ReturnType<ThrottlerStorage['increment']> {
    if (this.outage && Date.now() < this.openUntil) {
      this.outage.skipped += 1;
      this.outcomes.skipped.inc();
      throw new RedisUnavailableError('Redis is not asked for a while after repeated failures', false);
    }
    try {
      const record = await this.redis.increment(...args);
      this.outcomes.ok.inc();
      this.recovered();
      return record;
    } catch (error) {
      this.outcomes.failed.inc();
      const started = !this.outage;
      this.outage ??= { since: Date.now(), failed: 0, skipped: 0 };
      this.outage.failed += 1;
      if (++this.failuresInARow >= FAILURES_TO_OPEN) this.openUntil = Date.now() + OPEN_MS;
      throw new RedisUnavailableError(
        `Redis failed (${(error as Error).message}); not asked for ${OPEN_MS / 1000} s after ${FAILURES_TO_OPEN} failures in a row, and one line is logged when it answers again`,
        started,
      );
    }
  }

  /** The Redis storage is no provider of its own: its connection is closed here. */
  onApplicationShutdown(): void {
    this.redis.onModuleDestroy();
  }

  private recovered(): void {
    this.failuresInARow = 0;
    if (!this.outage) return;
    const { since, failed, skipped } = this.outage;
    this.outage = undefined;
    this.logger.warn(
      `Redis answers again after ${((Date.now() - since) / 1000).toFixed(1)} s of outage: ${failed + skipped} checks failed open (${failed} failed, ${skipped} not asked)`,
    );
  }
}
