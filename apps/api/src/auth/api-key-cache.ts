import { UnauthorizedError } from '@petstore/http-errors';
import { LRUCache } from 'lru-cache';
import { ApiKeyPrincipal } from './api-key';
import { StoredKey } from './api-keys.repository';
import type { Count } from '../observability/metrics';
import { KeyLookupQueue } from './key-lookup-queue';

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
 * Lifetimes are checked here, not by lru-cache: the known one changes while entries are held (see
 * setKnownTtl), and a known key is served for one lifetime past it while it is refreshed. lru-cache's
 * fetchMethod would share the queries too, but its AbortController per load made a miss cost 44 µs of
 * CPU instead of 3.
 */
export class ApiKeyCache {
  private readonly known: LRUCache<string, Entry>;
  private readonly unknown: LRUCache<string, Entry>;
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly lookups: KeyLookupQueue;

  constructor(
    private readonly load: (digest: string) => Promise<StoredKey | undefined>,
    private options: ApiKeyCacheOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new LRUCache({ max: options.capacity });
    this.unknown = new LRUCache({ max: options.capacity });
    this.lookups = new KeyLookupQueue(options.maxConcurrentLoads, options.maxWaitingLoads);
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
      pending = this.lookups
        .run(known, async () => {
          const checkedAt = this.now();
          const entry = { key: await this.load(digest), checkedAt };
          // An invalidation that arrived while loading wins: the entry is not kept.
          if (this.loading.get(digest) === pending) {
            (entry.key ? this.unknown : this.known).delete(digest);
            (entry.key ? this.known : this.unknown).set(digest, entry);
          }
          return entry;
        })
        .finally(() => {
          if (this.loading.get(digest) === pending) this.loading.delete(digest);
        });
      this.loading.set(digest, pending);
    }
    return pending;
  }
}
