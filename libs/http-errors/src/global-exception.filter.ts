import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorLogger } from './error-logger';
import { MappedError, mapError } from './error-mapping';
import { RouteTable } from './route-table';

/**
 * The one place where errors become HTTP answers: every error, ours or the framework's, leaves as
 * the Error body with its status. Faults of ours are logged with their stack and never sent.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: ErrorLogger,
    private readonly routes?: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const request = context.getRequest<FastifyRequest>();
    const reply = context.getResponse<FastifyReply>();
    const mapped = mapError(exception, { method: request.method, url: request.url }, this.routes);
    if (mapped.unexpected) {
      // The route, not the URL: a client may have put a key in the query, and the request's own log
      // line says the rest.
      const message = `${request.method} ${request.routeOptions?.url ?? '(no route)'} failed`;
      this.logger.error(message, request.id, exception instanceof Error ? exception.stack : String(exception));
    }
    sendError(reply, mapped);
  }
}

/** Writes a mapped error, unless an answer has already gone out. */
export function sendError(reply: FastifyReply, mapped: MappedError): void {
  if (reply.sent) return;
  reply
    .status(mapped.body.status)
    .headers(mapped.headers)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(mapped.body));
}

/**
 * Fastify's `frameworkErrors` option: errors raised by the router before any handler exists
 * (a path with bad percent-encoding, say) would otherwise get Fastify's own body.
 */
export function frameworkErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, mapError(error, { method: request.method, url: request.url }));
}
