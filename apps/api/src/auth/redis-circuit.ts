import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Count } from '../observability/metrics';

export interface RedisOutcomes {
  ok: Count;
  failed: Count;
  skipped: Count;
}

/** A Redis check that did not happen: Redis failed, or the circuit is open. The caller fails open. */
export class RedisUnavailableError extends Error {
  constructor(
    message: string,
    /** The first failure of an outage: the caller logs it (with its request's id), and no other. */
    readonly outageStarted: boolean,
  ) {
    super(message);
  }
}

const FAILURES_TO_OPEN = 3;
const OPEN_MS = 5_000;

/**
 * A Redis connection behind a circuit breaker. After 3 failures in a row (an error, or no answer within
 * the 500 ms command timeout) Redis is not asked for 5 s: checks fail at once instead of each waiting
 * for the timeout, then one check tries again. An outage is logged once by the caller that met it,
 * and once here when it ends, with what it cost; every check is counted in `outcomes`.
 */
export class RedisCircuit {
  readonly redis: Redis;
  private readonly logger: Logger;
  private failuresInARow = 0;
  private openUntil = 0;
  private probing = false;
  private outage?: { since: number; failed: number; skipped: number };

  constructor(
    url: string,
    context: string,
    private readonly outcomes: RedisOutcomes,
    private readonly now: () => number = Date.now,
  ) {
    this.logger = new Logger(context);
    // Loaded here, when Redis is configured: an instance without Redis never holds ioredis (2.4 MB of heap).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand
    const RedisClient = require('ioredis') as typeof import('ioredis').default;
    this.redis = new RedisClient(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, commandTimeout: 500 });
    // Reconnection errors are met by the checks themselves; this listener only keeps ioredis quiet.
    this.redis.on('error', () => undefined);
  }

  async call<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.outage && (this.now() < this.openUntil || this.probing)) {
      this.outage.skipped += 1;
      this.outcomes.skipped.inc();
      throw new RedisUnavailableError('Redis is not asked for a while after repeated failures', false);
    }
    const probe = this.outage !== undefined && this.failuresInARow >= FAILURES_TO_OPEN;
    if (probe) this.probing = true;
    try {
      const result = await command(this.redis);
      this.succeeded();
      this.outcomes.ok.inc();
      return result;
    } catch (error) {
      this.outcomes.failed.inc();
      throw this.failed(error as Error);
    } finally {
      if (probe) this.probing = false;
    }
  }

  disconnect(): void {
    this.redis.disconnect();
  }

  private succeeded(): void {
    this.failuresInARow = 0;
    if (!this.outage) return;
    const { since, failed, skipped } = this.outage;
    this.outage = undefined;
    this.logger.warn(
      `Redis answers again after ${((this.now() - since) / 1000).toFixed(1)} s of outage: ${failed + skipped} checks failed open (${failed} failed, ${skipped} not asked)`,
    );
  }

  private failed(error: Error): RedisUnavailableError {
    this.failuresInARow += 1;
    const started = !this.outage;
    this.outage ??= { since: this.now(), failed: 0, skipped: 0 };
    this.outage.failed += 1;
    if (this.failuresInARow >= FAILURES_TO_OPEN) this.openUntil = this.now() + OPEN_MS;
    return new RedisUnavailableError(
      `Redis failed (${error.message}); not asked for ${OPEN_MS / 1000} s after ${FAILURES_TO_OPEN} failures in a row, and one line is logged when it answers again`,
      started,
    );
  }
}
