import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { RateLimitedError, UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { ApiKeyPrincipal } from './api-key';
import { ApiKeyRefusedError } from './api-key-cache';
import { Metrics } from '../observability/metrics';
import { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer-token';
import { clientAddressKey } from './client-address';
import { FailureBudget, Reservation } from './failure-budget';
import { LookupsInFlight } from './lookups-in-flight';
import { IS_PUBLIC } from './public.decorator';

export type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKeyPrincipal };

/** Key look-ups one client address may have in flight in a process (see LookupsInFlight). */
export const LOOKUPS_IN_FLIGHT_PER_ADDRESS = 8;

/**
 * The one authentication guard: every route needs a valid API key unless it is marked @Public().
 * The scopes the route names with @RequireScopes() are checked by ScopesGuard, after the rate limiter,
 * so that a refused key is counted and told its quota like any other.
 *
 * A key known without a look-up (an `API_KEYS` entry, a cached usable key) passes whatever its address
 * did. Any other request first reserves a failure in its address's budget (FailureBudget), given back
 * when the key is accepted: so requests arriving together are counted before any look-up, and a 503
 * "busy" answer stays counted as a failure.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  private readonly reservations = new WeakMap<object, Reservation>();
  private readonly inFlight = new LookupsInFlight(LOOKUPS_IN_FLIGHT_PER_ADDRESS);

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly metrics: Metrics,
    @Inject(FailureBudget) private readonly budget: FailureBudget,
  ) {
    super({ session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const kind = this.budget.enabled ? this.apiKeys.classify(bearerToken(request.headers.authorization)) : 'known';
    if (kind === 'known') return (await super.canActivate(context)) as boolean;
    const address = clientAddressKey(request.ip);
    if (kind === 'lookup' && !this.inFlight.start(address)) {
      this.metrics.rateLimited.address.inc();
      throw new RateLimitedError(1, 'Too many API keys from this address are being checked at once');
    }
    try {
      const reservation = await this.budget.reserve(address);
      if (reservation.retryAfterSeconds > 0) {
        this.metrics.rateLimited.address.inc();
        throw new RateLimitedError(reservation.retryAfterSeconds, 'Too many failed authentications from this address');
      }
      this.reservations.set(request, reservation);
      return (await super.canActivate(context)) as boolean;
    } finally {
      if (kind === 'lookup') this.inFlight.end(address);
    }
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
    // An expired or revoked key is a failed authentication like an unknown one (its reservation is
    // kept); only its answer differs.
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
    this.reservations.get(request)?.release();
    request.apiKey = principal as unknown as ApiKeyPrincipal;
    return principal;
  }
}
