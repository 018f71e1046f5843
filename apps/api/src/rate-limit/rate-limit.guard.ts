import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { RateLimitedError } from '@petstore/http-errors';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import { RedisUnavailableError } from './redis-circuit';

/**
 * Counts requests per API key (the principal BearerAuthGuard set), across all routes, and announces the
 * quota on every authenticated answer with the RateLimit-Policy and RateLimit fields of
 * draft-ietf-httpapi-ratelimit-headers; over it, 429 with Retry-After. handleRequest is replaced, as
 * @nestjs/throttler documents for other transports, because its headers are the X-RateLimit-* ones.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly failures = new Logger('RateLimit');

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly metrics: Metrics,
  ) {
    super(options, storage, reflector);
  }

  /** Public routes have no key to count against. */
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(!context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey);
  }

  protected override getTracker(request: AuthenticatedRequest): Promise<string> {
    return Promise.resolve(request.apiKey!.keyId);
  }

  /** One counter per key for all routes (the library's default is one per route). */
  protected override generateKey(_context: ExecutionContext, keyId: string): string {
    return `petstore:ratelimit:${keyId}`;
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    blockDuration,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const name = throttler.name ?? 'default';
    const key = generateKey(context, await getTracker(request, context), name);
    let record: Awaited<ReturnType<ThrottlerStorage['increment']>>;
    try {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    } catch (error) {
      // Fail open: the limiter must not take the API down with it. An outage is logged once, by the
      // request that met it, not once per request.
      if (!(error instanceof RedisUnavailableError)) throw error;
      if (error.outageStarted) this.failures.warn(`rate limit not checked, ${error.message}`);
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
}
