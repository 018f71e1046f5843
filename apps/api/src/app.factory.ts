import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { GlobalExceptionFilter, RouteTable, frameworkErrorHandler } from '@petstore/http-errors';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './config/config';
import { DatabaseTarget } from './database/database.options';
import { setupSwagger } from './docs/swagger';
import { installDeprecationHeaders } from './http/deprecation';
import { installDrainRefusal } from './http/drain';
import { addSecurityHeaders, installSecurity, serverLimits } from './http/security';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './http/json-body';
import { httpLoggerFor, installHttpLogger } from './logging/logging.module';
import { REQUEST_ID_HEADER, installRequestTracking, requestIdOf } from './logging/request-id';

/** Builds the whole application, initialised but not listening: used by main and by the tests alike. */
export async function createApp(config: AppConfig, database: DatabaseTarget): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Long ids reach the id rule (400) instead of failing to match a route (404).
    routerOptions: { maxParamLength: 2048 },
    // Errors of the router come before any hook: they get the request id and security headers here.
    frameworkErrors: (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      addSecurityHeaders(request, reply);
      frameworkErrorHandler(error, request, reply);
    },
    // Requests that arrive while draining get the Error body (see installDrainRefusal).
    return503OnClosing: false,
    genReqId: requestIdOf,
    // Fastify's request logger (request.log) is a child of ours carrying the request id; nestjs-pino binds
    // Nest's Logger to it while a request runs. Fastify's own request lines are off: pino-http writes them.
    loggerInstance: httpLoggerFor(config).logger,
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    ...serverLimits(config),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), adapter, {
    bodyParser: false,
    abortOnError: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  await installSecurity(app, config);
  installHttpLogger(fastify, httpLoggerFor(config));
  installRequestTracking(fastify);
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
