import { Injectable, Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { DeprecationConfig } from '../http/deprecation';
import { Metrics } from '../observability/metrics';
import { ApiKeysRepository } from './api-keys.repository';
import type { AuthenticatedRequest } from './bearer-auth.guard';

/** A key's deprecated call is written at most this often: no database write per request. */
const RECORD_EVERY_MS = 60_000;

/**
 * Who still calls a deprecated operation: every answered call counts in
 * `petstore_deprecated_calls_total{operation}`, and an issued key's time of it goes to
 * `api_keys.last_deprecated_call_at` (`keys list`), at most once a minute per key. Keys from API_KEYS
 * have no row: the request log names them.
 */
@Injectable()
export class DeprecatedCalls {
  private readonly logger = new Logger('DeprecatedCalls');
  /** The keys whose call was written within the last minute. */
  private readonly recent = new LRUCache<string, true>({ max: 10_000, ttl: RECORD_EVERY_MS });

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly metrics: Metrics,
  ) {}

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

  private called(keyId: string | undefined): void {
    // Unauthenticated calls and API_KEYS entries (`env-…`) have no row to write to.
    if (!keyId || keyId.startsWith('env-') || this.recent.has(keyId)) return;
    this.recent.set(keyId, true);
    this.keys
      .recordDeprecatedCalls(new Map([[keyId, new Date()]]))
      .catch((error: Error) => this.logger.warn(`Could not record the deprecated call of API key ${keyId}: ${error.message}`));
  }
}
