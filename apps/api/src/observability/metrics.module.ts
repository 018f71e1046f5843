import { DynamicModule, Module } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { Metrics, type PoolStats } from './metrics';
import { MetricsController, MetricsTokenGuard } from './metrics.controller';

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
