import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply } from 'fastify';
import { Observable, catchError, concatMap, from, map, of, switchMap, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { RejectedBody } from '../http/json-body';
import { IdempotencyService, hashRequestBody } from './idempotency.service';

// The draft's value is a structured-field string ("…"); the bare token form is accepted too.
const KEY = /^"?([\x21\x23-\x7e]{1,255})"?$/;

/**
 * Idempotency-Key on a POST: the first request with a key runs and its answer is kept; the same key
 * with the same body replays that answer (status, body, Location); see IdempotencyService.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers['idempotency-key'];
    const apiKeyId = request.apiKey?.keyId;
    // A body that was refused is answered by the body pipe, with nothing to remember.
    if (header === undefined || !apiKeyId || request.body instanceof RejectedBody) return next.handle();
    const match = typeof header === 'string' ? KEY.exec(header) : null;
    if (!match) {
      const message = 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes';
      return throwError(() => new ValidationFailedError([{ field: 'Idempotency-Key', message }]));
    }
    const key = match[1];
    return from(this.idempotency.begin(apiKeyId, key, hashRequestBody(request.body))).pipe(
      switchMap((stored) => {
        if (stored) {
          reply.status(stored.statusCode).header('idempotent-replayed', 'true');
          if (stored.location) reply.header('location', stored.location);
          return of(stored.body);
        }
        return next.handle().pipe(
          concatMap((body) => {
            const location = reply.getHeader('location');
            const stored = { statusCode: reply.statusCode, body, location: typeof location === 'string' ? location : null };
            return from(this.idempotency.complete(apiKeyId, key, stored)).pipe(map(() => body));
          }),
          catchError((error: unknown) =>
            from(this.idempotency.release(apiKeyId, key).catch(() => undefined)).pipe(switchMap(() => throwError(() => error))),
          ),
        );
      }),
    );
  }
}
