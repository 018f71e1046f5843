import { FactoryProvider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DATABASE_TARGET, DatabaseTarget, sessionUrl } from '../database/database.options';
import { Metrics } from '../observability/metrics';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyChangeListener } from './api-key-changes';
import { ApiKeysRepository } from './api-keys.repository';
import { FailureBudget } from './failure-budget';
import { RedisCircuit } from './redis-circuit';

/** Trusted while LISTEN works: changes arrive as notifications; this only bounds a missed one. */
const LISTENING_TTL_MS = 60_000;
/** Trusted without notifications (embedded PostgreSQL, transaction pooler, lost listener): keeps revocation under 5 s. */
const POLLING_TTL_MS = 3_000;

/** Issued keys by digest: 10,000 known and 10,000 unknown ones; 4 look-ups at once, 256 waiting. */
export const API_KEY_CACHE: FactoryProvider<ApiKeyCache> = {
  provide: ApiKeyCache,
  inject: [ApiKeysRepository, Metrics],
  useFactory: (keys: ApiKeysRepository, metrics: Metrics) =>
    new ApiKeyCache((digest) => keys.findByDigest(digest), {
      capacity: 10_000,
      knownTtlMs: POLLING_TTL_MS,
      unknownTtlMs: POLLING_TTL_MS,
      maxConcurrentLoads: 4,
      maxWaitingLoads: 256,
      hits: metrics.keyCache.hit,
      misses: metrics.keyCache.miss,
    }),
};

/** The cache trusts a key for a minute while it hears of every change, and 3 s while it may miss one. */
export const API_KEY_CHANGES: FactoryProvider<ApiKeyChangeListener> = {
  provide: ApiKeyChangeListener,
  inject: [DATABASE_TARGET, ApiKeyCache],
  useFactory: (database: DatabaseTarget, cache: ApiKeyCache) =>
    new ApiKeyChangeListener(sessionUrl(database), {
      changed: (digest) => cache.invalidate(digest),
      listening: () => {
        cache.clear();
        cache.setKnownTtl(LISTENING_TTL_MS);
      },
      lost: () => cache.setKnownTtl(POLLING_TTL_MS),
    }),
};

/** AUTH_FAILURES_PER_MINUTE per client address, in Redis when REDIS_URL is set. */
export const FAILURE_BUDGET: FactoryProvider<FailureBudget> = {
  provide: FailureBudget,
  inject: [APP_CONFIG, Metrics],
  useFactory: (config: AppConfig, metrics: Metrics) =>
    new FailureBudget(
      config.auth.failuresPerMinute,
      config.rateLimit.redisUrl && config.auth.failuresPerMinute > 0
        ? new RedisCircuit(config.rateLimit.redisUrl, 'AuthFailures', metrics.redis)
        : undefined,
    ),
};
