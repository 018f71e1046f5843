import { DomainError, UnauthorizedError } from '@petstore/http-errors';
import { ApiKeyPrincipal } from '../keys/api-key';
import { StoredKey } from '../keys/api-keys.store';
import type { Count } from '../observability/metrics';

/** A size-capped map that forgets the least recently used entry first (a Map keeps insertion order). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

export interface ApiKeyCacheOptions {
  capacity: number;
  /** How long an accepted key is trusted without asking the database again. */
  knownTtlMs: number;
  /** How long an unknown digest is refused without asking the database again. */
  unknownTtlMs: number;
  /** Database look-ups running at once: a flood of unknown keys cannot take the connection pool. */
  maxConcurrentLoads: number;
  /** Look-ups that may wait for one of those; past it a look-up is refused at once (503), not queued. */
  maxWaitingLoads: number;
  /** Counted per look-up: answered from the cache, or from the database. */
  hits?: Count;
  misses?: Count;
}

/** What `get` throws past the waiting limit: part of the cache's contract (its spec asserts it). */
export class KeyLookupsBusyError extends DomainError {
  constructor() {
    super('service_unavailable', 'Too many API keys are being checked at once; retry shortly');
  }
}

const REFUSALS = {
  expired: { message: 'The API key expired: send a current key', description: 'The access token expired' },
  revoked: { message: 'The API key was revoked: send a current key', description: 'The access token was revoked' },
} as const;

/**
 * A key the service knows (its digest is stored) that is no longer accepted: the answer says why
 * (RFC 6750 error_description). An unknown key stays a plain invalid_token: that helps no guesser.
 */
export class ApiKeyRefusedError extends UnauthorizedError {
  constructor(readonly reason: keyof typeof REFUSALS) {
    super(REFUSALS[reason].message, true, REFUSALS[reason].description);
  }
}

interface Entry {
  key: StoredKey | undefined;
  checkedAt: number;
}

/**
 * Digest → key, so a known key costs no database round trip. Known and unknown digests live in
 * separate LRUs, so a flood of random keys cannot push the real ones out; concurrent look-ups of one
 * digest share one query, and look-ups queue behind a small concurrency limit, in a bounded queue.
 */
export class ApiKeyCache {
  private readonly known: Lru<string, Entry>;
  private readonly unknown: Lru<string, Entry>;
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(
    private readonly load: (digest: string) => Promise<StoredKey | undefined>,
    private options: ApiKeyCacheOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new Lru(options.capacity);
    this.unknown = new Lru(options.capacity);
  }

  /**
   * The principal of a usable key; undefined for an unknown digest; ApiKeyRefusedError for a revoked or
   * expired key. A known key due for a refresh is answered from the cache while it is refreshed (ahead
   * of every unknown digest waiting), for at most one more lifetime: a flood of unknown keys never
   * makes a known one wait.
   */
  async get(digest: string): Promise<ApiKeyPrincipal | undefined> {
    const now = this.now();
    let entry = this.known.get(digest) ?? this.unknown.get(digest);
    const age = entry ? now - entry.checkedAt : Infinity;
    if (entry?.key && age >= this.options.knownTtlMs) {
      this.options.misses?.inc();
      const refreshed = this.refresh(digest, true);
      if (age >= 2 * this.options.knownTtlMs) entry = await refreshed;
      else refreshed.catch(() => undefined);
    } else if (!entry || (!entry.key && age >= this.options.unknownTtlMs)) {
      this.options.misses?.inc();
      entry = await this.refresh(digest, false);
    } else this.options.hits?.inc();
    if (!entry.key) return undefined;
    if (entry.key.revokedAt) throw new ApiKeyRefusedError('revoked');
    const expiresAt = entry.key.expiresAt?.getTime();
    if (expiresAt !== undefined && expiresAt <= this.now()) throw new ApiKeyRefusedError('expired');
    return entry.key.principal;
  }

  /** Whether the digest is held as a usable key (fresh or due for a refresh): no look-up decides it. */
  holdsUsable(digest: string): boolean {
    const key = this.known.get(digest)?.key;
    if (!key || key.revokedAt) return false;
    const expiresAt = key.expiresAt?.getTime();
    return expiresAt === undefined || expiresAt > this.now();
  }

  /** Forgets one digest: its next use asks the database. */
  invalidate(digest: string): void {
    this.known.delete(digest);
    this.unknown.delete(digest);
    this.loading.delete(digest);
  }

  clear(): void {
    this.known.clear();
    this.unknown.clear();
    this.loading.clear();
  }

  setKnownTtl(ms: number): void {
    this.options = { ...this.options, knownTtlMs: ms };
  }

  private refresh(digest: string, known: boolean): Promise<Entry> {
    let pending = this.loading.get(digest);
    if (!pending) {
      pending = this.limited(known, async () => {
        const checkedAt = this.now();
        const entry = { key: await this.load(digest), checkedAt };
        // An invalidation that arrived while loading wins: the entry is not kept.
        if (this.loading.get(digest) === pending) {
          (entry.key ? this.unknown : this.known).delete(digest);
          (entry.key ? this.known : this.unknown).set(digest, entry);
        }
        return entry;
      }).finally(() => {
        if (this.loading.get(digest) === pending) this.loading.delete(digest);
      });
      this.loading.set(digest, pending);
    }
    return pending;
  }

  /** A known key's refresh goes ahead of every waiting look-up and is never refused as busy. */
  private async limited<T>(known: boolean, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.maxConcurrentLoads) {
      if (!known && this.waiting.length >= this.options.maxWaitingLoads) throw new KeyLookupsBusyError();
      await new Promise<void>((resolve) => (known ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    }
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
