import { DynamicModule, Module } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../config/config';
import { Metrics } from './metrics';
import { MetricsController, MetricsTokenGuard } from './metrics.controller';

/** The metrics every feature counts into, and `GET /metrics` while METRICS_ENABLED (the default). */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: Metrics, useValue: new Metrics(config.metrics.enabled) }, MetricsTokenGuard],
      controllers: config.metrics.enabled ? [MetricsController] : [],
      exports: [Metrics],
    };
  }
}

/**
 * Counts and times every answered request, unknown routes included, in one Fastify hook rather than an
 * interceptor (which wraps each handler in an rxjs pipeline; see docs/performance.md).
 */
export function installRequestMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
}
