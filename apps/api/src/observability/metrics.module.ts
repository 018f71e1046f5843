import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, DynamicModule, Get, Headers, Inject, Module, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { UnauthorizedError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorator';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Metrics, type PoolStats } from './metrics';

/** Hashed first, so the comparison runs in constant time whatever the lengths. */
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
/** The scheme in any case (RFC 7235). */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** METRICS_TOKEN, not an API key (Prometheus is no API client); open without one, which production refuses. */
function checkToken(token: string | undefined, authorization = ''): void {
  const presented = BEARER.exec(authorization)?.[1];
  if (token === undefined || (presented !== undefined && timingSafeEqual(digest(presented), digest(token)))) return;
  const bearer = /^bearer\s/i.test(authorization);
  throw new UnauthorizedError(
    bearer ? 'The metrics token is invalid' : 'The metrics need a token: send "Authorization: Bearer <METRICS_TOKEN>"',
    bearer,
  );
}

/** Prometheus scrapes, outside /v1 and the OpenAPI document: it is the operator's, not the API's. */
@ApiExcludeController()
@Public()
@Controller('metrics')
class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    checkToken(this.config.metrics.token, authorization);
    reply.header('cache-control', 'no-store').header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}

@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: Metrics, useValue: new Metrics(config.metrics.enabled) }],
      controllers: config.metrics.enabled ? [MetricsController] : [],
      exports: [Metrics],
    };
  }
}

/** Counts every answered request, unknown routes included, in one Fastify hook (an interceptor is an rxjs pipeline per handler). */
export function installMetrics(fastify: FastifyInstance, metrics: Metrics, dataSource: DataSource): void {
  // TypeORM's postgres driver holds pg's Pool as its public `master`, which counts its clients.
  const driver = dataSource.driver as { master?: PoolStats };
  metrics.watchPool(() => driver.master);
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
}
