import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { ContractValidationPipe, GlobalExceptionFilter, MAX_PARAM_LENGTH, RouteTable, frameworkErrorHandler } from '@petstore/http-errors';
import { ApiKeysService } from './auth/api-keys.service';
import { bearerToken } from './auth/bearer-token';
import { clientAddressKey } from './auth/client-address';
import { FailureBudget } from './auth/failure-budget';
import { AppModule } from './app.module';
import { DeprecatedCalls } from './auth/deprecated-calls';
import { AppConfig } from './config/config';
import { DatabaseTarget } from './database/database.options';
import { setupSwagger } from './docs/swagger';
import { installDeprecationHeaders } from './http/deprecation';
import { clientErrorHandler } from './http/parser-errors';
import { DrainState } from './http/drain';
import { installCors } from './http/cors';
import { addSecurityHeaders, installSecurityHeaders } from './http/security-headers';
import { applyRequestTimeouts, serverLimits } from './http/server-limits';
import { limitConnections } from './http/connection-limits';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './http/json-body';
import { PinoLoggerService, createLogger, installLogFlushing } from './logging/pino-logger';
import { RequestLogger } from './logging/request-logger';
import { installRequestLogging, logAnswer } from './logging/access-log';
import { REQUEST_ID_HEADER, requestIdOf } from './logging/request-id';
import { Metrics } from './observability/metrics';
import { installRequestMetrics } from './observability/metrics.module';
import { installTracing } from './observability/tracing';

/** Builds the whole application, initialised but not listening: used by main and by the tests alike. */
export async function createApp(config: AppConfig, database: DatabaseTarget): Promise<NestFastifyApplication> {
  const logger = createLogger(config);
  let metrics: Metrics | undefined;
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Any id reaches the id rule (400 naming petId): the request line is bounded by the 16 KiB of headers.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors of the router come before any hook: they get the request id and security headers here,
    // and are logged and counted here.
    frameworkErrors: (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      addSecurityHeaders(reply);
      frameworkErrorHandler(error, request, reply);
      logAnswer(logger, request, reply);
      metrics?.observeRequest(request.method, undefined, reply.statusCode, reply.elapsedTime);
    },
    // What Node's HTTP parser refuses gets the Error body too.
    clientErrorHandler,
    // Requests that still arrive on an open connection while the server closes are served (with
    // Connection: close): refusing them would fail a request the balancer had already sent.
    return503OnClosing: false,
    genReqId: requestIdOf,
    // Fastify logs through our pino, but its per-request child logger is skipped (request.log is the
    // app's logger: a child per request costs more than the rest of a cached-key GET), and its own
    // request lines are off: installRequestLogging writes one line per request with the id in it.
    loggerInstance: logger,
    childLoggerFactory: (parent: FastifyBaseLogger) => parent,
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    ...serverLimits(config),
    // The client address (failed-authentication limits, logs) comes from X-Forwarded-For only when the
    // peer is one of these proxies.
    ...(config.http.trustProxy && { trustProxy: config.http.trustProxy }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), adapter, {
    bodyParser: false,
    abortOnError: false,
    logger: new PinoLoggerService(logger),
  });
  const fastify = app.getHttpAdapter().getInstance();
  applyRequestTimeouts(app.getHttpServer(), config);
  limitConnections(app.getHttpServer(), config.http.maxConnections);
  const routes = new RouteTable();
  // `*` is the CORS plugin's preflight route, not a path of the API.
  fastify.addHook('onRoute', (route) => {
    if (route.url !== '*') routes.add(route.method, route.url);
  });
  installSecurityHeaders(app);
  await installCors(app, config);
  installRequestLogging(fastify, logger);
  if (app.get(Metrics).enabled) metrics = app.get(Metrics);
  installRequestMetrics(fastify, app.get(Metrics));
  installTracing(fastify);
  installLogFlushing(fastify, logger);
  const [apiKeys, budget] = [app.get(ApiKeysService), app.get(FailureBudget)];
  installJsonBodyParser(fastify, {
    retryAfterSeconds: (request) => {
      const seconds = budget.refusedFor(clientAddressKey(request.ip));
      return seconds > 0 && apiKeys.classify(bearerToken(request.headers.authorization)) !== 'known' ? seconds : 0;
    },
  });
  installDeprecationHeaders(fastify);
  app.get(DeprecatedCalls).install(fastify);
  app.get(DrainState).attach(app.getHttpServer());
  // Health and metrics endpoints are operational, not part of the versioned API.
  app.setGlobalPrefix('v1', { exclude: ['health/live', 'health/ready', 'metrics'] });
  app.useGlobalPipes(new ContractValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter(new RequestLogger('Errors'), routes));
  setupSwagger(app, config);
  await app.init();
  return app;
}
