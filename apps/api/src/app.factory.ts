import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { ContractValidationPipe, GlobalExceptionFilter, MAX_PARAM_LENGTH, RouteTable, frameworkErrorHandler } from '@petstore/http-errors';
import { AppModule } from './app.module';
import { ApiKeysService } from './auth/api-keys.service';
import { AppConfig } from './config/config';
import { DatabaseTarget } from './database/database.options';
import { routedPaths, setupSwagger } from './docs/swagger';
import { installDeprecation } from './http/deprecation';
import { clientErrorHandler, refuseConnect, serveUnknownExpectations } from './http/parser-errors';
import { DrainState } from './http/drain';
import { installCors } from './http/cors';
import { addSecurityHeaders, installSecurityHeaders } from './http/security-headers';
import { refuseAmbiguousRequests } from './http/request-head';
import { countRequest, countRequests, limitServer, serverLimits } from './http/server-limits';
import { closeUnreadBodies, installJsonBodyParser } from './http/json-body';
import { REQUEST_ID_HEADER, errorLogger, installRequestLog, logRequest, requestIdGenerator } from './logging/request-log';
import { Metrics } from './observability/metrics';
import { installMetrics } from './observability/metrics.module';
import { installTracing } from './observability/tracing';

/** Builds the whole application, initialised but not listening: used by main and by the tests alike. */
export async function createApp(config: AppConfig, database: DatabaseTarget): Promise<NestFastifyApplication> {
  let metrics: Metrics | undefined;
  const adapter = new FastifyAdapter({
    // Any id reaches the id rule (400 naming petId): the request line is bounded by the 16 KiB of headers.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors of the router run no hook: they get the request id and security headers, are logged and counted here.
    frameworkErrors: (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      countRequest(request, reply);
      reply.header(REQUEST_ID_HEADER, request.id);
      addSecurityHeaders(request, reply);
      frameworkErrorHandler(error, request, reply);
      logRequest(request, reply, config.auth.apiKeys);
      metrics?.observeRequest(request.method, undefined, reply.statusCode, reply.elapsedTime);
    },
    // What Node's HTTP parser refuses gets the Error body too.
    clientErrorHandler: clientErrorHandler((status) => metrics?.observeRequest('', undefined, status, 0)),
    // Requests still arriving on an open connection while the server closes are served (Connection: close).
    return503OnClosing: false,
    // Fastify's own logger stays off: nestjs-pino (pino-http) writes the request lines, with this id.
    genReqId: requestIdGenerator(config.auth.apiKeys),
    ...serverLimits(config),
    // The client address comes from X-Forwarded-For only when the peer is one of these proxies.
    ...(config.http.trustProxy && { trustProxy: config.http.trustProxy }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), adapter, {
    bodyParser: false,
    abortOnError: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  limitServer(app.getHttpServer(), config);
  refuseConnect(app.getHttpServer(), config.auth.apiKeys);
  serveUnknownExpectations(app.getHttpServer(), fastify);
  const routes = new RouteTable();
  // `*` is the CORS plugin's preflight route, not a path of the API.
  fastify.addHook('onRoute', (route) => {
    if (route.url !== '*') for (const url of routedPaths(route.url)) routes.add(route.method, url);
  });
  installSecurityHeaders(fastify);
  countRequests(fastify);
  // Before the CORS plugin, whose preflight answers end the hooks: they carry the request id too.
  installRequestLog(fastify, config.auth.apiKeys);
  refuseAmbiguousRequests(fastify);
  await installCors(app, config);
  installMetrics(fastify, app.get(Metrics), app.get(DataSource));
  metrics = app.get(Metrics);
  installTracing(fastify);
  installJsonBodyParser(fastify);
  closeUnreadBodies(fastify);
  const keys = app.get(ApiKeysService);
  installDeprecation(fastify, (operation) => keys.deprecatedCalls(operation));
  app.get(DrainState).attach(fastify);
  // Health and metrics endpoints are operational, not part of the versioned API.
  app.setGlobalPrefix('v1', { exclude: ['health/live', 'health/ready', 'metrics'] });
  app.useGlobalPipes(new ContractValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter(errorLogger('Errors'), routes));
  await setupSwagger(app, config);
  await app.init();
  return app;
}
