import { Req, Res } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Runs around a route handler: `handler()` calls it with the parameters it declared. */
export type Around = (request: FastifyRequest, reply: FastifyReply, handler: () => Promise<unknown>) => Promise<unknown>;

/**
 * Builds a method decorator that runs `around` a route handler with the request and the reply, which
 * the handler itself need not declare. The handler is wrapped once, when the class is defined: two
 * hidden parameters (@Req, @Res passthrough) are appended after the declared ones and taken off again
 * before the call. Nest resolves them as it would in the signature, so a wrapper costs what @Req()
 * and @Res() cost there; not a Nest interceptor, whose rxjs pipeline cost ~15 % of a create
 * (see docs/performance.md). Decorators stack: the one written lowest runs innermost.
 */
export function aroundHandler(around: Around): MethodDecorator {
  return (target, key, descriptor) => {
    const original = descriptor.value as unknown as (...args: unknown[]) => Promise<unknown>;
    const declared = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<string, { index: number }>;
    const index = Math.max(-1, ...Object.values(declared).map((arg) => arg.index)) + 1;
    Req()(target, key, index);
    Res({ passthrough: true })(target, key, index + 1);
    const wrapped = function (this: unknown, ...args: unknown[]): Promise<unknown> {
      const reply = args.pop() as FastifyReply;
      const request = args.pop() as FastifyRequest;
      return around(request, reply, () => original.apply(this, args));
    };
    // What the decorators applied before this one (route, status, OpenAPI) recorded on the method.
    for (const metadataKey of Reflect.getMetadataKeys(original)) {
      Reflect.defineMetadata(metadataKey, Reflect.getMetadata(metadataKey, original), wrapped);
    }
    Object.defineProperty(wrapped, 'name', { value: original.name });
    descriptor.value = wrapped as unknown as typeof descriptor.value;
  };
}
