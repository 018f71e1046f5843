import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { Metrics } from '../observability/metrics';
import { ApiKeyPrincipal } from './api-key';
import { ApiKeyRefusedError } from './api-keys.service';
import { IS_PUBLIC } from './public.decorator';

export type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKeyPrincipal };

/**
 * The first guard: every route needs a valid API key (the bearer strategy) unless it is marked
 * @Public(). The scopes are checked by ScopesGuard, after the rate limiter, so that a 403 is counted too.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly metrics: Metrics,
  ) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    return super.canActivate(context);
  }

  /** passport-http-bearer also reads `access_token` from the query and the body: it is shown the header alone. */
  override getRequest(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return { headers: { authorization: request.headers.authorization } };
  }

  override handleRequest<T>(error: unknown, principal: T, _info: unknown, context: ExecutionContext): T {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (error instanceof ApiKeyRefusedError) this.metrics.authRefusals.invalid.inc();
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- passport hands errors over untyped
    if (error) throw error;
    if (!principal) {
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
