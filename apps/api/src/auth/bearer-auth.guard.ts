import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ForbiddenError, UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { ApiKeyPrincipal, ApiKeyScope } from '../keys/api-key';
import { IS_PUBLIC } from './public.decorator';
import { REQUIRED_SCOPES } from './scopes.decorator';

export type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKeyPrincipal };

/**
 * The one global guard: every route needs a valid API key unless it is marked @Public(), and the key
 * must hold the scopes the route names with @RequireScopes().
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    return isPublic ? true : super.canActivate(context);
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
    if (error) throw error;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!principal) {
      const presented = /^bearer\s/i.test(request.headers.authorization ?? '');
      throw new UnauthorizedError(
        presented ? 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key' : 'An API key is required: send "Authorization: Bearer <API key>"',
        presented,
      );
    }
    const key = principal as unknown as ApiKeyPrincipal;
    const required = this.reflector.getAllAndOverride<ApiKeyScope[] | undefined>(REQUIRED_SCOPES, [context.getHandler(), context.getClass()]) ?? [];
    const missing = required.filter((scope) => !key.scopes.includes(scope));
    if (missing.length > 0) {
      throw new ForbiddenError(`This API key lacks the ${missing.join(', ')} scope that this operation needs`, missing);
    }
    request.apiKey = key;
    return principal;
  }
}
