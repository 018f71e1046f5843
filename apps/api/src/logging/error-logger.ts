import { Logger } from '@nestjs/common';
import type { ErrorLogger } from '@petstore/http-errors';

/**
 * The exception filter's port on Nest's Logger (nestjs-pino underneath): the line is tied to its
 * request by the request id nestjs-pino binds to every line logged while the request runs.
 */
export function errorLogger(context: string): ErrorLogger {
  const logger = new Logger(context);
  return { error: (message, _requestId, stack) => (stack ? logger.error(message, stack) : logger.error(message)) };
}
