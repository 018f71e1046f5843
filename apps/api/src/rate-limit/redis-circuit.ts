import { Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Count } from '../observability/metrics';

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
 * timeout; then one count tries again. Every count is counted by outcome in `petstore_redis_checks_total`.
 */
export class RedisCircuitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private failuresInARow = 0;
  private openUntil = 0;

  constructor(
    private readonly redis: ThrottlerStorage & OnModuleDestroy,
    private readonly outcomes: Record<'ok' | 'failed' | 'skipped', Count>,
  ) {}

  async increment(...args: Parameters<ThrottlerStorage['increment']>): ReturnType<ThrottlerStorage['increment']> {
    if (Date.now() < this.openUntil) {
      this.outcomes.skipped.inc();
      throw new RedisUnavailableError('Redis is not asked for a while after repeated failures', false);
    }
    try {
      const record = await this.redis.increment(...args);
      this.outcomes.ok.inc();
      if (this.failuresInARow > 0) this.logger.warn('Redis answers again: the rate limit is checked again');
      this.failuresInARow = 0;
      return record;
    } catch (error) {
      this.outcomes.failed.inc();
      if (++this.failuresInARow >= FAILURES_TO_OPEN) this.openUntil = Date.now() + OPEN_MS;
      throw new RedisUnavailableError(
        `Redis failed (${(error as Error).message}); not asked for ${OPEN_MS / 1000} s after ${FAILURES_TO_OPEN} failures in a row`,
        this.failuresInARow === 1,
      );
    }
  }

  /** The Redis storage is no provider of its own: its connection is closed here. */
  onApplicationShutdown(): void {
    this.redis.onModuleDestroy();
  }
}
