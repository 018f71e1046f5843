import type { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import { pinoHttp } from 'pino-http';
import { AppConfig } from '../config/config';


/** What the request log line says beyond method, url and status; filled in before the answer goes out. */
export interface RequestLogContext {
  route?: string;
  keyId?: string;
}
export type LoggedRequest = IncomingMessage & { id?: string; logContext?: RequestLogContext };

/**
 * JSON lines through pino: one line per request (id, method, url, route, status, duration, key id)
 * and every application log line of a request carries its id. Headers are not logged at all, so
 * neither a key nor an Authorization header can reach the log; the redaction is a second guard.
 */
export function httpLoggerFor(config: AppConfig): HttpLogger {
  let logger = httpLoggers.get(config);
  if (!logger) httpLoggers.set(config, (logger = createHttpLogger(config)));
  return logger;
}

function createHttpLogger(config: AppConfig) {
  return pinoHttp({
    level: config.logLevel,
    genReqId: (req: LoggedRequest) => req.id ?? '',
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customProps: (req: LoggedRequest) => ({ ...req.logContext }),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.authorization'], censor: '[redacted]' },
    // A 5xx (but the designed 501) is logged at error level; a fault's cause is logged by the exception filter.
    customLogLevel: (_req, res, error) => (error || (res.statusCode >= 500 && res.statusCode !== 501) ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${req.url} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${req.url} ${res.statusCode}`,
    customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => ({ ...value, err: undefined }),
    // Every line logged during the request carries its id.
    quietReqLogger: true,
  });
}

export type HttpLogger = ReturnType<typeof createHttpLogger>;
/** One pino instance per app: Fastify's request loggers (which nestjs-pino binds to Nest's Logger) and pino-http share it. */
const httpLoggers = new WeakMap<AppConfig, HttpLogger>();

/** Runs the request logger for every request Fastify routes, matched or not (404s included). */
export function installHttpLogger(fastify: FastifyInstance, httpLogger: HttpLogger): void {
  fastify.addHook('onRequest', (request, reply, done) => httpLogger(request.raw as LoggedRequest, reply.raw as ServerResponse, () => done()));
}

/** Nest's Logger writes through the same pino instance, bound to the request's logger while one runs. */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: httpLoggerFor(config).logger }, useExisting: true })],
    };
  }
}
