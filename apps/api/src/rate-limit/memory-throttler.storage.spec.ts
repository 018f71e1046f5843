import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage(() => now);
  });

  it('counts hits per key in a window that starts at the first one', async () => {
    expect(await storage.increment('a', 60_000, 2)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 15_500;
    expect(await storage.increment('a', 60_000, 2)).toEqual({ totalHits: 2, timeToExpire: 45, isBlocked: false, timeToBlockExpire: 0 });
    expect(await storage.increment('b', 60_000, 2)).toMatchObject({ totalHits: 1, timeToExpire: 60 });
  });

  it('refuses over the limit until the window ends, then starts a new one', async () => {
    for (let i = 0; i < 3; i++) await storage.increment('a', 60_000, 3);
    now += 59_000;
    expect(await storage.increment('a', 60_000, 3)).toEqual({ totalHits: 4, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1 });
    now += 1_000;
    expect(await storage.increment('a', 60_000, 3)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps one counter per key, whatever the quota', async () => {
    const limit = 20_000;
    for (let i = 0; i < limit; i++) await storage.increment('a', 60_000, limit);
    expect(await storage.increment('a', 60_000, limit)).toMatchObject({ totalHits: limit + 1, isBlocked: true });
  });
});
