import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import type { AppConfig } from '../config/config';

/** Nest's `HealthController {/v1/health}:` heading names the global prefix even for routes excluded from it. */
const CONTROLLER_HEADING = /^\w+ \{[^}]*\}:$/;

/**
 * nestjs-pino without its per-request middleware (`forRoutes: []`): pino-http's child logger and AsyncLocalStorage cost a
 * third of a request's CPU, so lines written during a request name their `requestId`. Headers are never logged.
 */
export function loggerParams(config: AppConfig, stdoutIsTerminal = process.stdout.isTTY === true): Params {
  const format = config.logging.format ?? (stdoutIsTerminal ? 'pretty' : 'json');
  const options: Params['pinoHttp'] = {
    level: config.logging.level,
    // The request line's `req` and `res` are plain fields already made safe to log (request-log.ts): no serializer runs on them.
    wrapSerializers: false,
    // The "Mapped {…}" lines that follow a heading name the paths actually served.
    hooks: {
      logMethod(args, method) {
        const [fields, message] = args as [{ context?: unknown } | undefined, unknown];
        if (fields?.context !== 'RoutesResolver' || typeof message !== 'string' || !CONTROLLER_HEADING.test(message)) method.apply(this, args);
      },
    },
  };
  return { forRoutes: [], pinoHttp: [options, format === 'pretty' ? prettyStream(stdoutIsTerminal) : bufferedStdout()] };
}

/** Lines gathered up to 4 KiB, written at least every 200 ms and at exit: one write a dozen lines under load. Synchronous
 * writes: an asynchronous fs.write per 4 KiB cost 3 µs a request, a synchronous one 0.4 µs (measured). */
function bufferedStdout(): DestinationStream {
  // maxLength: lines stdout cannot take (a full disk, a hung-up terminal) are dropped past 1 MiB, not held.
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096, maxLength: 1024 * 1024 });
  const timer = setInterval(() => destination.flush(), 200).unref();
  destination.on('close', () => clearInterval(timer));
  // Unheard, a write error is thrown from the next log call or flush: a closed terminal (EIO) killed a draining service.
  let said = false;
  destination.on('error', (error: NodeJS.ErrnoException) => {
    if (!said) console.error(`standard output refuses log lines (${error.code ?? error.message}): they are dropped while it does`);
    said = true;
  });
  return destination;
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
