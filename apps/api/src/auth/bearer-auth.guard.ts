import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { Metrics } from '../observability/metrics';
import { ApiKeyPrincipal } from './api-key';
import { IS_PUBLIC } from './auth.decorator';

export type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKeyPrincipal };

/** The first guard: every route not marked @Public() needs a valid API key (the bearer strategy, ApiKeysService). */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  @Inject() private readonly reflector!: Reflector;
  @Inject() private readonly metrics!: Metrics;

  override canActivate(context: ExecutionContext) {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) || super.canActivate(context);
  }

  /** passport-http-bearer also reads `access_token` from the query and the body: it is shown the header alone. */
  override getRequest(context: ExecutionContext) {
    return { headers: { authorization: context.switchToHttp().getRequest<FastifyRequest>().headers.authorization } };
  }

  override handleRequest<T extends ApiKeyPrincipal | false>(error: unknown, principal: T, _info: unknown, context: ExecutionContext): T {
    if (error instanceof UnauthorizedError) this.metrics.authRefusals.invalid.inc(); // a revoked or expired key
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- passport hands errors over untyped
    if (error) throw error;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
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
    request.apiKey = principal;
    return principal;
  }
}
