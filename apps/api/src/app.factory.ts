import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { GlobalExceptionFilter, RouteTable, frameworkErrorHandler } from '@petstore/http-errors';
import { AppModule } from './app.module';
import { AppConfig } from './config/config';
import { DatabaseTarget } from './database/database.options';
import { setupSwagger } from './docs/swagger';
import { installDeprecationHeaders } from './http/deprecation';
import { installDrainRefusal } from './http/drain';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './http/json-body';

const LOG_LEVELS: Record<AppConfig['nodeEnv'], LogLevel[]> = {
  development: ['log', 'warn', 'error', 'fatal'],
  production: ['log', 'warn', 'error', 'fatal'],
  test: ['warn', 'error', 'fatal'],
};

/** Builds the whole application, initialised but not listening: used by main and by the tests alike. */
export async function createApp(config: AppConfig, database: DatabaseTarget): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Long ids reach the id rule (400) instead of failing to match a route (404).
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: frameworkErrorHandler,
    // Requests that arrive while draining get the Error body (see installDrainRefusal).
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), adapter, {
    bodyParser: false,
    abortOnError: false,
    logger: LOG_LEVELS[config.nodeEnv],
  });
  const fastify = app.getHttpAdapter().getInstance();
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  installJsonBodyParser(fastify);
  installDeprecationHeaders(fastify);
  installDrainRefusal(fastify);
  // Health endpoints are operational, not part of the versioned API.
  app.setGlobalPrefix('v1', { exclude: ['health/live', 'health/ready'] });
  app.useGlobalFilters(new GlobalExceptionFilter(routes));
  setupSwagger(app, config);
  await app.init();
  return app;
}
