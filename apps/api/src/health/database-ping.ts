import { Injectable } from '@nestjs/common';
import { Database, Statement } from '../database/database';

const PING: Statement = { name: 'health_ping', text: 'SELECT 1' };

/** How long one ping's answer stands for every probe (the balancer checks each instance every 500 ms). */
export const PING_FRESH_MS = 250;

/**
 * Whether the database answers, for readiness: one ping shared by every concurrent probe and reused
 * for PING_FRESH_MS, so a flood of probes costs at most one pool connection, never one each.
 */
@Injectable()
export class DatabasePing {
  private last?: { at: number; answered: boolean };
  private pending?: Promise<boolean>;

  constructor(private readonly database: Database) {}

  answers(): Promise<boolean> {
    if (this.last && performance.now() - this.last.at < PING_FRESH_MS) return Promise.resolve(this.last.answered);
    this.pending ??= this.ping().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async ping(): Promise<boolean> {
    // Bounded by the pool's connection and query timeouts (DATABASE_TIMEOUTS): 2.7 s at most.
    const answered = await this.database.rows(PING, []).then(
      () => true,
      () => false,
    );
    this.last = { at: performance.now(), answered };
    return answered;
  }
}
