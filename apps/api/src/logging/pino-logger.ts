import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import pino, { type Level, type Logger } from 'pino';
import { AppConfig } from '../config/config';

/** Nest's `PetsController {/v1/pets}:` line (its CONTROLLER_MAPPING_MESSAGE). */
const CONTROLLER_HEADING = /^\w+ \{[^}]*\}:?$/;

/** The longest a log line waits in the buffer. */
const FLUSH_INTERVAL_MS = 200;

/**
 * The one pino instance of an app, on stdout: JSON lines, or readable ones (LOG_FORMAT=pretty, the default
 * when stdout is a terminal). JSON lines are buffered up to 4 KiB: a write per request cost a quarter of
 * a GET's CPU time (see docs/performance.md); a person reading a terminal gets each line at once.
 * Headers are never logged, so neither a key nor an Authorization header can reach the log.
 */
export function createLogger(config: AppConfig, stdoutIsTerminal = process.stdout.isTTY === true): Logger {
  const format = config.logging.format ?? (stdoutIsTerminal ? 'pretty' : 'json');
  if (format === 'pretty') return pino({ level: config.logging.level }, prettyStream(stdoutIsTerminal));
  return pino({ level: config.logging.level }, pino.destination({ dest: 1, sync: true, minLength: 4096 }));
}

/**
 * `12:04:05.120 INFO [Main] Pet Store API listening on …`: time, level, context, message, and the other
 * fields on the same line. pino-pretty is loaded only here: JSON logging does not pay for it.
 */
function prettyStream(colorize: boolean) {
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

/** Buffered lines go out at least every FLUSH_INTERVAL_MS, and when the server closes; pino flushes at exit. */
export function installLogFlushing(fastify: FastifyInstance, logger: Logger): void {
  const timer = setInterval(() => logger.flush(), FLUSH_INTERVAL_MS).unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    logger.flush();
    done();
  });
}

/**
 * Nest's Logger on top of pino. Nest passes the context (the Logger's name) last and, for errors, a
 * stack before it. A message may be an object of fields with `msg`: that is how a line logged while a
 * request runs carries its `requestId` (there is no per-request context store, on purpose: see docs/performance.md).
 */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  // Nest's levels, each written at pino's level of the same meaning (verbose is pino's trace).
  readonly log = this.at('info');
  readonly error = this.at('error');
  readonly warn = this.at('warn');
  readonly debug = this.at('debug');
  readonly verbose = this.at('trace');
  readonly fatal = this.at('fatal');

  private at(level: Level): (message: unknown, ...params: unknown[]) => void {
    return (message, ...params) => this.write(level, message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    // Nest heads each controller's routes with its path under the global prefix, even when the prefix
    // is excluded for them ("HealthController {/v1/health}" for /health/live): the "Mapped {…}" lines
    // that follow (context RouterExplorer) name the paths actually served, so the heading is dropped.
    if (context === 'RoutesResolver' && typeof message === 'string' && CONTROLLER_HEADING.test(message)) return;
    const stack = params.find((param): param is string => typeof param === 'string');
    const fields: Record<string, unknown> = { context, ...(stack && { stack }) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) {
      const { msg, ...rest } = message as Record<string, unknown>;
      this.logger[level]({ ...fields, ...rest }, msg == null ? '' : typeof msg === 'string' ? msg : JSON.stringify(msg));
    } else this.logger[level](fields, String(message));
  }
}
