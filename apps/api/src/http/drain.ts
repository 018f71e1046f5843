import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * On SIGTERM the instance drains, still listening: readiness answers 503 so the balancer stops choosing it,
 * and every answer closes its connection instead of it being cut under the next request (see main.ts).
 */
@Injectable()
export class DrainState {
  draining = false;

  /** Also the answers of requests already in flight at the signal: kept alive, their connections held the stop to its deadline. */
  attach(fastify: FastifyInstance): void {
    fastify.addHook('onSend', (_request, reply, payload, done) => {
      if (this.draining) reply.header('connection', 'close');
      done(null, payload);
    });
  }

  begin(): void {
    this.draining = true;
  }
}
