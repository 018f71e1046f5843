import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { UnauthorizedError } from '@petstore/http-errors';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, AppConfig, ConfigError } from '../config/config';
import { Metrics } from '../observability/metrics';
import { API_KEY_FORMAT, API_KEY_SCOPES, ApiKeyPrincipal, hashApiKey } from './api-key';
import { ApiKeysRepository, StoredKey } from './api-keys.repository';

/** How long a look-up is trusted: every instance refuses a revoked key within 5 s. */
const CACHE_TTL_MS = 3_000;
const NO_KEY_DEMAND =
  'No API key exists: create one with `pnpm keys create --name <label>` (same DATABASE_URL or DATA_DIR) or set API_KEYS, then start again';

const REFUSALS = {
  expired: { message: 'The API key expired: send a current key', description: 'The access token expired' },
  revoked: { message: 'The API key was revoked: send a current key', description: 'The access token was revoked' },
} as const;

/** A stored key no longer accepted: the answer says why (RFC 6750 error_description); an unknown key is just invalid. */
export class ApiKeyRefusedError extends UnauthorizedError {
  constructor(readonly reason: keyof typeof REFUSALS) {
    super(REFUSALS[reason].message, true, REFUSALS[reason].description);
  }
}

/**
 * Decides which keys are accepted: `API_KEYS` entries (in memory, every scope), and issued keys, looked
 * up by SHA-256 digest and cached for 3 s. In development a start with no usable key anywhere creates
 * one and prints it once; in production such a start fails.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit {
  private readonly logger = new Logger('ApiKeys');
  private readonly environmentKeys = new Map<string, ApiKeyPrincipal>();
  /** Digest → stored key (false: none); concurrent look-ups of one digest share one query. */
  private readonly cache = new LRUCache<string, StoredKey | false>({
    max: 10_000,
    ttl: CACHE_TTL_MS,
    fetchMethod: (digest) => this.lookUp(digest),
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly metrics: Metrics,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const key of this.config.auth.apiKeys) {
      // Named by its digest, not its position: reordering API_KEYS must not hand one key's records to another.
      const digest = hashApiKey(key);
      const keyId = `env-${digest.slice(0, 16)}`;
      this.environmentKeys.set(digest, { keyId, label: `API_KEYS entry ${keyId}`, scopes: API_KEY_SCOPES });
    }
    // Reported with the configuration's own production demands, which wait for this one.
    const demands = [...this.config.productionDemands];
    if (this.environmentKeys.size === 0 && !(await this.ensureSomeKey())) demands.push(NO_KEY_DEMAND);
    if (demands.length > 0) throw new ConfigError(demands);
  }

  /** The principal of a usable key; undefined for an unknown one; ApiKeyRefusedError for a revoked or expired one. */
  async authenticate(token: string): Promise<ApiKeyPrincipal | undefined> {
    const digest = hashApiKey(token);
    const fromEnvironment = this.environmentKeys.get(digest);
    if (fromEnvironment) return fromEnvironment;
    if (!API_KEY_FORMAT.test(token)) return undefined; // cannot be an issued key: no look-up
    const status: LRUCache.Status<string, StoredKey | false> = {};
    const key = await this.cache.fetch(digest, { status });
    (status.fetch === 'hit' ? this.metrics.keyCache.hit : this.metrics.keyCache.miss).inc();
    if (!key) return undefined;
    if (key.revokedAt) throw new ApiKeyRefusedError('revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw new ApiKeyRefusedError('expired');
    return key.principal;
  }

  private async lookUp(digest: string): Promise<StoredKey | false> {
    const key = await this.keys.findByDigest(digest);
    // "last used" is written with each look-up: at most once per cache lifetime, never once a request.
    if (key && !key.revokedAt) {
      this.keys
        .recordUsage(new Map([[key.principal.keyId, new Date()]]))
        .catch((error: Error) => this.logger.warn(`Could not record when API key ${key.principal.keyId} was used: ${error.message}`));
    }
    return key ?? false;
  }

  /** False when production has no usable key (development creates one). */
  private async ensureSomeKey(): Promise<boolean> {
    const created = await this.keys.firstKey(
      this.config.nodeEnv === 'production' ? undefined : { label: 'development key', scopes: [...API_KEY_SCOPES] },
    );
    if (created === 'exists') return true;
    if (created === 'missing') return false;
    // Printed once, on the console only (never through the logger): it is the key itself.
    console.log(
      `No API key existed, so development key ${created.record.id} was created. It is shown only this once:\n  Authorization: Bearer ${created.key}`,
    );
    return true;
  }
}
