import type { Server } from 'node:http';
import { Injectable } from '@nestjs/common';

/**
 * Shutdown without failing a request behind a balancer. On SIGTERM the instance first drains, still
 * listening: readiness answers 503 so the balancer stops choosing it, and every answer carries
 * `Connection: close` so keep-alive connections end after the request they carry instead of being
 * cut under the next one. Then the listener closes and requests in flight finish (see main.ts).
 */
@Injectable()
export class DrainState {
  private server?: Server;
  private drainingSince?: number;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** The HTTP server whose answers close their connections once draining begins. */
  attach(server: Server): void {
    this.server = server;
  }

  begin(): void {
    if (this.draining) return;
    this.drainingSince = Date.now();
    // A listener added only now, ahead of Fastify's, instead of a hook that would test a flag on every
    // request of the instance's life. Node then closes each connection after its answer.
    this.server?.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  }
}
