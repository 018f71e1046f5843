import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import type { AppConfig } from '../config/config';
import { loggableUrl } from './loggable-url';
import { requestFields, requestLevel, traceFields } from './request-fields';

/** Nest's `HealthController {/v1/health}:` heading names the global prefix even for routes excluded from it. */
const CONTROLLER_HEADING = /^\w+ \{[^}]*\}:$/;

/**
 * nestjs-pino's options: one JSON line per answered request (pino-http) with its id, method, URL (see
 * loggableUrl: no key a client put in it), route, status, duration in ms, the API key's id and, while
 * traces are on, the trace id. Lines logged during a request carry its `requestId` (quietReqLogger).
 * Headers are never logged, so neither a key nor an Authorization header can reach the log.
 * A 5xx other than the designed 501 is logged at error level; its cause is logged by the exception filter.
 */
export function loggerParams(config: AppConfig, stdoutIsTerminal = process.stdout.isTTY === true): Params {
  const apiKeys = config.auth.apiKeys;
  const url = (req: IncomingMessage) => loggableUrl(req.url ?? '', apiKeys);
  const format = config.logging.format ?? (stdoutIsTerminal ? 'pretty' : 'json');
  const options: Params['pinoHttp'] = {
    level: config.logging.level,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: loggableUrl(req.url, apiKeys) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customProps: (req: IncomingMessage) => traceFields(req),
    customLogLevel: (_req: IncomingMessage, res: ServerResponse) => requestLevel(res.statusCode),
    // The "Mapped {…}" lines that follow a heading name the paths actually served.
    hooks: {
      logMethod(args, method) {
        const [fields, message] = args as unknown[];
        if ((fields as { context?: unknown })?.context === 'RoutesResolver' && typeof message === 'string' && CONTROLLER_HEADING.test(message))
          return;
        method.apply(this, args);
      },
    },
    customSuccessMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${url(req)} ${res.statusCode}`,
    customErrorMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${url(req)} ${res.statusCode}`,
    customSuccessObject: (req: IncomingMessage, _res: ServerResponse, value: object) => ({ ...value, ...requestFields(req) }),
    // pino-http's `err` for a 5xx says only "failed with status code"; the filter logs the cause.
    customErrorObject: (req: IncomingMessage, _res: ServerResponse, _error: Error, { err: _err, ...value }: Record<string, unknown>) => ({
      ...value,
      ...requestFields(req),
    }),
  };
  return { pinoHttp: [options, format === 'pretty' ? prettyStream(stdoutIsTerminal) : pino.destination({ dest: 1, sync: false })] };
}

/**
 * `12:04:05.120 INFO [Main] Pet Store API listening on …`: time, level, context, message, and the other
 * fields on the same line. pino-pretty is loaded only here: JSON logging does not pay for it.
 */
function prettyStream(colorize: boolean): DestinationStream {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, so JSON logging never loads it
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pretty({
    destination: 1,
    sync: true,
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  });
}
