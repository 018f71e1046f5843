import type { Logger } from '@nestjs/common';

/**
 * A time per key id (last used, last deprecated call), kept in memory and written in one batched
 * statement by `flush`, never once per request. A write that fails keeps its times for the next flush
 * (a newer time taken meanwhile wins).
 */
export class PendingKeyTimes {
  private readonly pending = new Map<string, Date>();

  constructor(
    private readonly write: (times: Map<string, Date>) => Promise<void>,
    private readonly logger: Logger,
    /** What the times are, for the warning: "when API keys were last used". */
    private readonly what: string,
  ) {}

  set(keyId: string, at: Date): void {
    this.pending.set(keyId, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = new Map(this.pending);
    this.pending.clear();
    try {
      await this.write(batch);
    } catch (error) {
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.logger.warn(`Could not record ${this.what}: ${(error as Error).message}`);
    }
  }
}
