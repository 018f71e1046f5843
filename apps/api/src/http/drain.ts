import type { Server } from 'node:http';
import { Injectable } from '@nestjs/common';

/**
 * On SIGTERM the instance drains, still listening: readiness answers 503 so the balancer stops choosing it,
 * and every answer closes its connection instead of it being cut under the next request (see main.ts).
 */
@Injectable()
export class DrainState {
  private server?: Server;
  draining = false;

  attach(server: Server): void {
    this.server = server;
  }

  begin(): void {
    if (this.draining) return;
    this.draining = true;
    // Added only now, ahead of Fastify's: no flag tested on every request of the instance's life.
    this.server?.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  }
}
