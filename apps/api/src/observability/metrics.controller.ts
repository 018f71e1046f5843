import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, Controller, ExecutionContext, Get, Header, Inject, Injectable, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { UnauthorizedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorator';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Metrics } from './metrics';

/** Hashed first, so the comparison runs in constant time whatever the lengths. */
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
/** The scheme in any case (RFC 7235). */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** METRICS_TOKEN, not an API key (Prometheus is no API client); open without one, which production refuses. */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const token = this.config.metrics.token;
    if (token === undefined) return true;
    const { authorization } = context.switchToHttp().getRequest<FastifyRequest>().headers;
    const presented = BEARER.exec(authorization ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), digest(token))) return true;
    const bearer = /^bearer\s/i.test(authorization ?? '');
    throw new UnauthorizedError(
      bearer ? 'The metrics token is invalid' : 'The metrics need a token: send "Authorization: Bearer <METRICS_TOKEN>"',
      bearer,
    );
  }
}

/** Prometheus scrapes, outside /v1 and the OpenAPI document: it is the operator's, not the API's. */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @UseGuards(MetricsTokenGuard)
  @Header('cache-control', 'no-store')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
