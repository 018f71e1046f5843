import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import { RateLimitedError } from '@petstore/http-errors';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { RedisUnavailableError } from '../auth/redis-circuit';
import { RequestLogger } from '../logging/request-logger';
import { Metrics } from '../observability/metrics';

/**
 * Counts requests per API key (the principal the auth guard set), across all routes, and announces
 * the quota on every authenticated answer with the RateLimit-Policy and RateLimit fields of
 * draft-ietf-httpapi-ratelimit-headers; over the quota it answers 429 with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly failures = new RequestLogger('RateLimit');
  // A property: the constructor is ThrottlerGuard's.
  @Inject(Metrics) private readonly metrics!: Metrics;

  protected override async handleRequest({ context, limit, ttl, throttler }: ThrottlerRequest): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const keyId = request.apiKey?.keyId;
    if (!keyId) return true; // public routes: nothing to count against
    const name = throttler.name ?? 'default';
    let record: Awaited<ReturnType<typeof this.storageService.increment>>;
    try {
      record = await this.storageService.increment(`petstore:ratelimit:${name}:${keyId}`, ttl, limit, ttl, name);
    } catch (error) {
      // Fail open: the limiter must not take the API down with it. An outage is logged once, by the
      // request that met it (the circuit logs its end), not once per request.
      if (!(error instanceof RedisUnavailableError)) throw error;
      if (error.outageStarted) this.failures.warn(`rate limit not checked, ${error.message}`, request.id);
      return true;
    }
    const reset = record.isBlocked ? record.timeToBlockExpire : record.timeToExpire;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    reply.header('ratelimit-policy', `"${name}";q=${limit};w=${Math.round(ttl / 1000)}`);
    reply.header('ratelimit', `"${name}";r=${Math.max(0, limit - record.totalHits)};t=${reset}`);
    if (record.isBlocked) {
      this.metrics.rateLimited.apiKey.inc();
      throw new RateLimitedError(reset);
    }
    return true;
  }

  protected override shouldSkip(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
