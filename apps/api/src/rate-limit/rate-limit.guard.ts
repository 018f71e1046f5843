import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import { RateLimitedError } from '@petstore/http-errors';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import { RedisCountFailed } from './redis-throttler.storage';

/** One count per API key with the IETF RateLimit-Policy and RateLimit fields (handleRequest replaced, as documented: its own are X-RateLimit-*). */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  @Inject() private readonly metrics!: Metrics;
  private readonly outages = new Logger('RateLimit');

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration }: ThrottlerRequest): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const keyId = request.apiKey?.keyId;
    if (!keyId) return true; // public routes have no key to count against
    const name = throttler.name ?? 'default';
    // Fail open when Redis does not answer (RedisThrottlerStorage counts it): the limiter must not take the API down.
    // An outage is logged once, by the request that met it, not once per request.
    const record = await this.storageService.increment(`petstore:ratelimit:${keyId}`, ttl, limit, blockDuration, name).catch((error: unknown) => {
      if (error instanceof RedisCountFailed && error.firstInARow) this.outages.warn({ requestId: request.id }, error.message);
      return undefined;
    });
    if (!record) return true;
    // The window's hits against the quota in force, not a block Redis kept: raised since (a rollout), it lets them through.
    const reset = record.timeToExpire;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    reply.header('ratelimit-policy', `"${name}";q=${limit};w=${Math.round(ttl / 1000)}`);
    reply.header('ratelimit', `"${name}";r=${Math.max(0, limit - record.totalHits)};t=${reset}`);
    if (record.totalHits > limit) {
      this.metrics.rateLimited.apiKey.inc();
      throw new RateLimitedError(reset);
    }
    return true;
  }
}
