import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from './domain-error';
import { mapError } from './error-mapping';
import { RouteTable } from './route-table';

/** The library's logger port: the app hands it an adapter to whatever logger it runs. */
export interface ErrorLogger {
  error(message: string, requestId: string, stack?: string): void;
}

/** The one place where errors become HTTP answers: the Error body with its status; faults of ours are logged, never sent. */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: ErrorLogger,
    private readonly routes?: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const mapped = mapError(exception, request, this.routes);
    // The route, not the URL: a client may have put a key in the query.
    const message = `${request.method} ${request.routeOptions?.url ?? '(no route)'} failed`;
    if (mapped.unexpected) this.logger.error(message, request.id, exception instanceof Error ? exception.stack : String(exception));
    // A 5xx the database caused: its reason tells a refused connection from a timeout or a full disk (no stack: not our fault).
    else if (mapped.body.status >= 500 && !(exception instanceof DomainError))
      this.logger.error(`${message}: ${String((exception as Error).message)}`, request.id);
    sendError(host.switchToHttp().getResponse<FastifyReply>(), mapped);
  }
}

/** Writes a mapped error, unless an answer has already gone out. */
export function sendError(reply: FastifyReply, { body, headers }: ReturnType<typeof mapError>): void {
  if (reply.sent) return;
  reply.status(body.status).headers(headers).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Fastify's `frameworkErrors`: errors of the router, before any handler, with the same mapping as the filter. */
export function frameworkErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, mapError(error, request));
}
