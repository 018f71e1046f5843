import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * Shutdown without failing a request behind a balancer. On SIGTERM the instance first drains, still
 * listening: readiness answers 503 so the balancer stops choosing it, and every answer carries
 * `Connection: close` so keep-alive connections end after the request they carry instead of being
 * cut under the next one. Then the listener closes and requests in flight finish (see main.ts).
 */
@Injectable()
export class DrainState {
  private drainingSince?: number;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  begin(): void {
    this.drainingSince ??= Date.now();
  }
}

export function installDrainHeaders(fastify: FastifyInstance, drain: DrainState): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    if (drain.draining) reply.header('connection', 'close');
    done();
  });
}
