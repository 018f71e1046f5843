import { aroundHandler } from './around-handler';

/** Sets the Location header of an answer from the handler's result (a created resource's URL). */
export function Location<T>(url: (result: T) => string): MethodDecorator {
  return aroundHandler(async (_request, reply, handler) => {
    const result = (await handler()) as T;
    reply.header('location', url(result));
    return result;
  });
}
