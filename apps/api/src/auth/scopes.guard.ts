import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '@petstore/http-errors';
import { ApiKeyScope } from './api-key';
import { Metrics } from '../observability/metrics';
import type { AuthenticatedRequest } from './bearer-auth.guard';
import { REQUIRED_SCOPES } from './scopes.decorator';

/** The key must hold the scopes the route names with @RequireScopes(); public routes have no key to check. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly metrics: Metrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const key = context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey;
    if (!key) return true;
    const required = this.reflector.getAllAndOverride<ApiKeyScope[] | undefined>(REQUIRED_SCOPES, [context.getHandler(), context.getClass()]) ?? [];
    const missing = required.filter((scope) => !key.scopes.includes(scope));
    if (missing.length > 0) this.metrics.authRefusals.forbidden.inc();
    if (missing.length > 0) throw new ForbiddenError(`This API key lacks the ${missing.join(', ')} scope that this operation needs`, missing);
    return true;
  }
}
