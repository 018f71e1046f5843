import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { RateLimitedError, UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { ApiKeyPrincipal } from '../keys/api-key';
import { ApiKeyRefusedError } from './api-key-cache';
import { Metrics } from '../observability/metrics';
import { ApiKeysService } from './api-keys.service';
import { IS_PUBLIC } from './public.decorator';

export type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKeyPrincipal };

/**
 * The one authentication guard: every route needs a valid API key unless it is marked @Public().
 * The scopes the route names with @RequireScopes() are checked by ScopesGuard, after the rate limiter,
 * so that a refused key is counted and told its quota like any other.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly metrics: Metrics,
  ) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    // An address that failed too often waits, whatever it sends: no key is looked up for it.
    const retryAfter = this.apiKeys.failures?.retryAfterSeconds(context.switchToHttp().getRequest<FastifyRequest>().ip) ?? 0;
    if (retryAfter > 0) {
      this.metrics.rateLimited.address.inc();
      throw new RateLimitedError(retryAfter, 'Too many failed authentications from this address');
    }
    return super.canActivate(context);
  }

  /**
   * passport-http-bearer also reads `access_token` from the query and the body; the key must come
   * from the Authorization header only, so the strategy is shown nothing else.
   */
  override getRequest(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return { headers: { authorization: request.headers.authorization } };
  }

  override handleRequest<T>(error: unknown, principal: T, _info: unknown, context: ExecutionContext): T {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // An expired or revoked key is a failed authentication like an unknown one; only its answer differs.
    if (error instanceof ApiKeyRefusedError) {
      this.apiKeys.failures?.recordFailure(request.ip);
      this.metrics.authRefusals.invalid.inc();
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- passport hands errors over untyped
    if (error) throw error;
    if (!principal) {
      this.apiKeys.failures?.recordFailure(request.ip);
      const presented = /^bearer\s/i.test(request.headers.authorization ?? '');
      (presented ? this.metrics.authRefusals.invalid : this.metrics.authRefusals.missing).inc();
      throw new UnauthorizedError(
        presented
          ? 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key'
          : 'An API key is required: send "Authorization: Bearer <API key>"',
        presented,
      );
    }
    request.apiKey = principal as unknown as ApiKeyPrincipal;
    return principal;
  }
}
