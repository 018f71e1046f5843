import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import type { AppConfig } from '../config/config';
import { loggableUrl } from './loggable-url';

/** Nest's `HealthController {/v1/health}:` heading names the global prefix even for routes excluded from it. */
const CONTROLLER_HEADING = /^\w+ \{[^}]*\}:$/;

/** nestjs-pino: lines logged during a request carry its `requestId`; headers are never logged, so no key reaches the log through them. */
export function loggerParams(config: AppConfig, stdoutIsTerminal = process.stdout.isTTY === true): Params {
  const format = config.logging.format ?? (stdoutIsTerminal ? 'pretty' : 'json');
  const options: Params['pinoHttp'] = {
    level: config.logging.level,
    autoLogging: false,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: loggableUrl(req.url, config.auth.apiKeys) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // The "Mapped {…}" lines that follow a heading name the paths actually served.
    hooks: {
      logMethod(args, method) {
        const [fields, message] = args as unknown[];
        if ((fields as { context?: unknown })?.context === 'RoutesResolver' && typeof message === 'string' && CONTROLLER_HEADING.test(message))
          return;
        method.apply(this, args);
      },
    },
  };
  return { pinoHttp: [options, format === 'pretty' ? prettyStream(stdoutIsTerminal) : pino.destination({ dest: 1, sync: false })] };
}

/** `12:04:05.120 INFO [Main] Pet Store API listening on …`; pino-pretty is loaded only here. */
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
