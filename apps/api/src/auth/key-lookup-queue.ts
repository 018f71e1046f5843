import { DomainError } from '@petstore/http-errors';

/** What a look-up gets past the waiting limit: refused at once (503), not queued. */
export class KeyLookupsBusyError extends DomainError {
  constructor() {
    super('service_unavailable', 'Too many API keys are being checked at once; retry shortly');
  }
}

/**
 * Key look-ups in the database: at most `running` at once, so a flood of unknown keys cannot take the
 * connection pool, and at most `waiting` queued behind them. A known key's refresh goes ahead of every
 * waiting look-up and is never refused.
 */
export class KeyLookupQueue {
  private readonly queue: (() => void)[] = [];
  private active = 0;

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(known: boolean, task: () => Promise<T>): Promise<T> {
    if (this.active < this.running) this.active++;
    else {
      if (!known && this.queue.length >= this.waiting) throw new KeyLookupsBusyError();
      // Woken holding the slot of the look-up that finished: nobody can take it in between.
      await new Promise<void>((resolve) => (known ? this.queue.unshift(resolve) : this.queue.push(resolve)));
    }
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}
