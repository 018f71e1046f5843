import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/** RATE_LIMIT_PER_MINUTE per API key, in Redis when REDIS_URL is set (shared by every instance), else in memory; the module is global. */
export const rateLimitModule = ({ rateLimit }: AppConfig) =>
  ThrottlerModule.forRootAsync({
    inject: [Metrics],
    useFactory: async (metrics: Metrics) => ({
      throttlers: [{ name: 'default', ttl: 60_000, limit: rateLimit.perMinute }],
      storage: rateLimit.redisUrl ? await RedisThrottlerStorage.connect(rateLimit.redisUrl, metrics.redis) : new MemoryThrottlerStorage(),
    }),
  });
