import { StoredKey } from './api-keys.repository';
import { ApiKeyCache, ApiKeyRefusedError } from './api-key-cache';
import { KeyLookupsBusyError } from './key-lookup-queue';

const stored = (keyId: string, expiresAt: Date | null = null, revokedAt: Date | null = null): StoredKey => ({
  principal: { keyId, label: keyId, scopes: ['pets:read'] },
  expiresAt,
  revokedAt,
});

function setup(keys: Record<string, StoredKey>, capacity = 100) {
  let now = 1_000_000;
  const loads: string[] = [];
  const cache = new ApiKeyCache(
    async (digest) => {
      loads.push(digest);
      return keys[digest];
    },
    { capacity, knownTtlMs: 3000, unknownTtlMs: 3000, maxConcurrentLoads: 2, maxWaitingLoads: 3 },
    () => now,
  );
  return { cache, loads, advance: (ms: number) => (now += ms), keys };
}

describe('ApiKeyCache', () => {
  it('asks the database once per key while the entry is fresh, and again once it is stale', async () => {
    const { cache, loads, advance } = setup({ a: stored('1') });
    expect(await cache.get('a')).toEqual(stored('1').principal);
    await cache.get('a');
    expect(loads).toEqual(['a']);
    advance(3000);
    await cache.get('a');
    expect(loads).toEqual(['a', 'a']);
  });

  it('counts each look-up as a hit (answered from the cache) or a miss (asked the database)', async () => {
    const counted = { hits: 0, misses: 0 };
    let now = 0;
    const cache = new ApiKeyCache(
      async (digest) => (digest === 'a' ? stored('1') : undefined),
      {
        capacity: 100,
        knownTtlMs: 3000,
        unknownTtlMs: 3000,
        maxConcurrentLoads: 2,
        maxWaitingLoads: 3,
        hits: { inc: () => counted.hits++ },
        misses: { inc: () => counted.misses++ },
      },
      () => now,
    );
    await cache.get('a');
    await cache.get('a');
    await cache.get('x');
    await cache.get('x');
    now += 3000;
    await cache.get('a');
    expect(counted).toEqual({ hits: 2, misses: 3 });
  });

  it('remembers unknown digests too, and shares one query between concurrent look-ups', async () => {
    const { cache, loads } = setup({});
    expect(await Promise.all([cache.get('x'), cache.get('x'), cache.get('x')])).toEqual([undefined, undefined, undefined]);
    await cache.get('x');
    expect(loads).toEqual(['x']);
  });

  it('refuses a cached key once its expiry passes, saying so, without a query', async () => {
    const { cache, loads, advance } = setup({ a: stored('1', new Date(1_000_500)) });
    expect(await cache.get('a')).toBeDefined();
    advance(500);
    await expect(cache.get('a')).rejects.toEqual(new ApiKeyRefusedError('expired'));
    await expect(cache.get('a')).rejects.toMatchObject({ reason: 'expired', description: 'The access token expired', tokenPresented: true });
    expect(loads).toEqual(['a']);
  });

  it('forgets an invalidated key: a revoked one is refused as revoked at its next look-up, a deleted one as unknown', async () => {
    const { cache, loads, keys } = setup({ a: stored('1'), b: stored('2') });
    await cache.get('a');
    await cache.get('b');
    keys.a = stored('1', null, new Date(1_000_000));
    delete keys.b;
    cache.invalidate('a');
    cache.invalidate('b');
    await expect(cache.get('a')).rejects.toMatchObject({ reason: 'revoked', description: 'The access token was revoked' });
    expect(await cache.get('b')).toBeUndefined();
    // A refused key is remembered like any other: asking again costs no query.
    await expect(cache.get('a')).rejects.toBeInstanceOf(ApiKeyRefusedError);
    expect(loads).toEqual(['a', 'b', 'a', 'b']);
  });

  it('does not keep an answer that was loading when the key was invalidated', async () => {
    const { cache, loads, keys } = setup({ a: stored('1') });
    const loading = cache.get('a');
    delete keys.a;
    cache.invalidate('a');
    await loading;
    expect(await cache.get('a')).toBeUndefined();
    expect(loads).toEqual(['a', 'a']);
  });

  it('holds at most `capacity` known keys, forgetting the least recently used first', async () => {
    const { cache, loads } = setup({ a: stored('1'), b: stored('2'), c: stored('3') }, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a');
    await cache.get('c');
    await cache.get('a');
    await cache.get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps known keys apart from unknown ones, so a flood of unknown keys cannot evict them', async () => {
    const { cache, loads } = setup({ a: stored('1') }, 10);
    await cache.get('a');
    for (let i = 0; i < 50; i++) await cache.get(`unknown-${i}`);
    await cache.get('a');
    expect(loads.filter((d) => d === 'a')).toHaveLength(1);
  });

  it('queues at most maxWaitingLoads look-ups behind the running ones, and refuses more at once', async () => {
    const release: (() => void)[] = [];
    const cache = new ApiKeyCache(
      (digest) => new Promise<StoredKey | undefined>((resolve) => release.push(() => resolve(digest === 'known' ? stored('k') : undefined))),
      { capacity: 100, knownTtlMs: 3000, unknownTtlMs: 3000, maxConcurrentLoads: 2, maxWaitingLoads: 3 },
    );
    const lookups = ['u1', 'u2', 'u3', 'u4', 'u5'].map((digest) => cache.get(digest));
    await expect(cache.get('known')).rejects.toThrow(KeyLookupsBusyError);
    // Each answer lets a waiting look-up start (and add its own answer to release).
    while (release.length > 0) {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(lookups)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // Once the queue drained, a look-up is served again.
    const known = cache.get('known');
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()?.();
    expect(await known).toEqual(stored('k').principal);
  });

  it('answers a known key due for a refresh from the cache, never queued or refused behind unknown ones', async () => {
    let now = 1_000_000;
    const release: [string, () => void][] = [];
    const cache = new ApiKeyCache(
      (digest) =>
        new Promise<StoredKey | undefined>((resolve) => release.push([digest, () => resolve(digest === 'known' ? stored('k') : undefined)])),
      { capacity: 100, knownTtlMs: 3000, unknownTtlMs: 3000, maxConcurrentLoads: 2, maxWaitingLoads: 3 },
      () => now,
    );
    const first = cache.get('known');
    release.shift()![1]();
    expect(await first).toEqual(stored('k').principal);
    now += 3000;
    // The look-ups are full: 2 running, 3 waiting.
    const unknown = ['u1', 'u2', 'u3', 'u4', 'u5'].map((digest) => cache.get(digest));
    expect(await cache.get('known')).toEqual(stored('k').principal);
    // Its refresh starts first once a running look-up ends, ahead of the 3 waiting.
    release.shift()![1]();
    await new Promise((resolve) => setImmediate(resolve));
    expect(release.map(([digest]) => digest)).toEqual(['u2', 'known']);
    while (release.length > 0) {
      release.shift()![1]();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(unknown);
  });
});
