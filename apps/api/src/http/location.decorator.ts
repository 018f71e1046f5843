import { CallHandler, ExecutionContext, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { tap } from 'rxjs';

/** Sets the Location header of an answer from the handler's result (a created resource's URL). */
export function Location<T>(url: (result: T) => string): MethodDecorator {
  return UseInterceptors({
    intercept: (context: ExecutionContext, next: CallHandler<T>) =>
      next.handle().pipe(tap((result) => void context.switchToHttp().getResponse<FastifyReply>().header('location', url(result)))),
  });
}
