import { CanActivate, Controller, ExecutionContext, Get, Header, Inject, Injectable, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RateLimitedError, UnauthorizedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientAddressKey } from '../auth/client-address';
import { FailureBudget } from '../auth/failure-budget';
import { Public } from '../auth/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Metrics } from './metrics';
import { carriesToken } from './metrics-token';

/**
 * `/metrics` asks for METRICS_TOKEN, not an API key: Prometheus is no API client. Without a token (never
 * in production) it is open. A wrong or missing token is a failed authentication of its address, in
 * the API keys' budget: guessing the token costs what guessing a key does.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(FailureBudget) private readonly budget: FailureBudget,
    private readonly metrics: Metrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const token = this.config.metrics.token;
    if (token === undefined) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { authorization } = request.headers;
    if (carriesToken(authorization, token)) return true;
    const { retryAfterSeconds } = await this.budget.reserve(clientAddressKey(request.ip));
    if (retryAfterSeconds > 0) {
      this.metrics.rateLimited.address.inc();
      throw new RateLimitedError(retryAfterSeconds, 'Too many failed authentications from this address');
    }
    const presented = /^bearer\s/i.test(authorization ?? '');
    throw new UnauthorizedError(
      presented ? 'The metrics token is invalid' : 'The metrics need a token: send "Authorization: Bearer <METRICS_TOKEN>"',
      presented,
    );
  }
}

/**
 * Prometheus scrapes, outside /v1. Public to the API-key guard on purpose (its own guard checks the
 * metrics token), and left out of the OpenAPI document: it is the operator's, not the API's.
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @UseGuards(MetricsTokenGuard)
  @Header('cache-control', 'no-store')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.metrics.contentType);
    return this.metrics.render();
  }
}
