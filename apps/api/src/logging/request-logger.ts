import { Logger } from '@nestjs/common';
import type { ErrorLogger } from '@petstore/http-errors';

/**
 * A line logged while a request runs, tied to it by its id. The one place that knows how: a message
 * object with `msg` and `requestId`, which PinoLoggerService spreads into the line's fields (there is no
 * per-request context store, on purpose: see docs/performance.md). Also the adapter of @petstore/http-errors' port.
 */
export class RequestLogger implements ErrorLogger {
  private readonly logger: Logger;

  constructor(context: string) {
    this.logger = new Logger(context);
  }

  warn(message: string, requestId: string): void {
    this.logger.warn({ msg: message, requestId });
  }

  error(message: string, requestId: string, stack?: string): void {
    this.logger.error({ msg: message, requestId }, stack);
  }
}
