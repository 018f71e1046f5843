import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { RedisCircuit } from '../auth/redis-circuit';
import { fixedWindowRecord } from './fixed-window';

// One round trip, atomic: count the hit, start the window on the first one, read what is left of it.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { hits, redis.call('PTTL', KEYS[1]) }`;

/**
 * Fixed-window counters in Redis, shared by every instance, behind a circuit breaker (see RedisCircuit):
 * when Redis fails, is slow or the circuit is open, increment throws RedisUnavailableError and the
 * guard lets the request through (fail open).
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  constructor(private readonly circuit: RedisCircuit) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, remainingMs] = (await this.circuit.call((redis) => redis.eval(INCREMENT, 1, key, ttl))) as [number, number];
    return fixedWindowRecord(hits, remainingMs, limit);
  }

  onApplicationShutdown(): void {
    this.circuit.disconnect();
  }
}
