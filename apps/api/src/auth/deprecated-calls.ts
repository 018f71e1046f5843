import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { DeprecationConfig } from '../http/deprecation';
import { ApiKeysRepository } from './api-keys.repository';
import { PendingKeyTimes } from './pending-key-times';
import { Metrics } from '../observability/metrics';
import { LRUCache } from 'lru-cache';
import type { AuthenticatedRequest } from './bearer-auth.guard';

/** A key's deprecated call is written at most this often: no database write per request on the hot path. */
export const DEPRECATED_CALL_RECORD_MS = 60_000;
const FLUSH_MS = 5_000;

/**
 * Who still calls a deprecated operation. Every answered call counts in
 * `petstore_deprecated_calls_total{operation}`; an issued key's time of it goes to
 * `api_keys.last_deprecated_call_at` (`keys list`), at most once a minute per key, in one batched
 * statement every 5 s as `last used` is. Keys from API_KEYS have no row: the request log names them.
 */
@Injectable()
export class DeprecatedCalls implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeprecatedCalls');
  /** When each key's call was last taken for writing. */
  private readonly taken = new LRUCache<string, number>({ max: 10_000 });
  private readonly pending: PendingKeyTimes;
  private timer?: NodeJS.Timeout;

  constructor(
    keys: ApiKeysRepository,
    private readonly metrics: Metrics,
  ) {
    this.pending = new PendingKeyTimes((times) => keys.recordDeprecatedCalls(times), this.logger, 'deprecated calls of API keys');
  }

  /** Counts and records the calls of every route whose config marks it deprecated. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it the config's type is not resolved
      const deprecation = (route.config as Partial<DeprecationConfig> | undefined)?.deprecation;
      if (!deprecation) return;
      const count = this.metrics.deprecatedCall(deprecation.operation);
      const existing = route.onResponse ? [route.onResponse].flat() : [];
      route.onResponse = [
        ...existing,
        (request, _reply, done) => {
          count.inc();
          this.called((request as AuthenticatedRequest).apiKey?.keyId);
          done();
        },
      ];
    });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private called(keyId: string | undefined, now = Date.now()): void {
    // Unauthenticated calls and API_KEYS entries (`env-…`) have no row to write to.
    if (!keyId || keyId.startsWith('env-')) return;
    const last = this.taken.get(keyId);
    if (last !== undefined && now - last < DEPRECATED_CALL_RECORD_MS) return;
    this.taken.set(keyId, now);
    this.pending.set(keyId, new Date(now));
  }

  private flush(): Promise<void> {
    return this.pending.flush();
  }
}
