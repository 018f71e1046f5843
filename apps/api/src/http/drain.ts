import type { Server } from 'node:http';
import { Injectable } from '@nestjs/common';

/**
 * On SIGTERM the instance drains, still listening: readiness answers 503 so the balancer stops choosing it,
 * and every answer closes its connection instead of it being cut under the next request (see main.ts).
 */
@Injectable()
export class DrainState {
  private server?: Server;
  private drainingSince?: number;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  attach(server: Server): void {
    this.server = server;
  }

  begin(): void {
    if (this.draining) return;
    this.drainingSince = Date.now();
    // Added only now, ahead of Fastify's: no flag tested on every request of the instance's life.
    this.server?.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  }
}
