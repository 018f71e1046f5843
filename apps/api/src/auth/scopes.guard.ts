import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '@petstore/http-errors';
import { Metrics } from '../observability/metrics';
import { ApiKeyScope } from './api-key';
import type { AuthenticatedRequest } from './bearer-auth.guard';
import { REQUIRED_SCOPES } from './auth.decorator';

/** The key must hold the scopes the route names with @RequireScopes(); public routes have no key to check. */
@Injectable()
export class ScopesGuard implements CanActivate {
  @Inject() private readonly reflector!: Reflector;
  @Inject() private readonly metrics!: Metrics;

  canActivate(context: ExecutionContext): boolean {
    const key = context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey;
    const required = this.reflector.getAllAndOverride<ApiKeyScope[] | undefined>(REQUIRED_SCOPES, [context.getHandler(), context.getClass()]);
    const missing = key ? (required ?? []).filter((scope) => !key.scopes.includes(scope)) : [];
    if (missing.length === 0) return true;
    this.metrics.authRefusals.forbidden.inc();
    throw new ForbiddenError(`This API key lacks the ${missing.join(', ')} scope that this operation needs`, missing);
  }
}
