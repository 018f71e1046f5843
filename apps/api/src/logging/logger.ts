import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import pino, { type Level, type Logger } from 'pino';
import { AppConfig } from '../config/config';

/** The longest a log line waits in the buffer. */
const FLUSH_INTERVAL_MS = 200;

/**
 * The one pino instance of an app: JSON lines on stdout. Lines are buffered up to 4 KiB and written
 * asynchronously: a write per request cost a quarter of a GET's CPU time (see README, Performance).
 * Headers are never logged, so neither a key nor an Authorization header can reach the log.
 */
export function createLogger(config: AppConfig): Logger {
  return pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: true, minLength: 4096 }));
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
 * request runs carries its `requestId` (there is no per-request context store, on purpose: see README).
 */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    const stack = params.find((param): param is string => typeof param === 'string');
    const fields: Record<string, unknown> = { context, ...(stack && { stack }) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) {
      const { msg, ...rest } = message as Record<string, unknown>;
      this.logger[level]({ ...fields, ...rest }, String(msg ?? ''));
    } else this.logger[level](fields, String(message));
  }
}
