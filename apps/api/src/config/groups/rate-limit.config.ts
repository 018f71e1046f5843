import { IntegerIn, UrlOf } from '../rules';
import { Variable, parseInteger } from '../variable';

/** Requests per API key, and where the counters (of these and of failed authentications) live. */
export class RateLimitConfig {
  /** Requests a minute per API key; 0 turns rate limiting off. */
  @Variable({ name: 'RATE_LIMIT_PER_MINUTE', parse: parseInteger, description: 'requests per minute per API key; `0` turns rate limiting off' })
  @IntegerIn(0, 1_000_000, '0 (off)')
  perMinute = 1200;

  /** Where the rate limit and failed-authentication counters live; in memory when absent. */
  @Variable({
    name: 'REDIS_URL',
    example: 'redis://127.0.0.1:6379',
    description: '`redis://…` or `rediss://…`: keep rate limit counters in Redis, shared by all instances; unset: in memory',
  })
  @UrlOf(['redis:', 'rediss:'], 'a redis:// or rediss:// URL')
  redisUrl?: string;
}
