import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConfigError } from '../config/config';
import { API_KEY_FORMAT, API_KEY_SCOPES, ApiKeyPrincipal, hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyChangeListener } from './api-key-changes';
import { ApiKeysRepository } from './api-keys.repository';
import { PendingKeyTimes } from './pending-key-times';

const USAGE_FLUSH_MS = 5_000;
const NO_KEY_DEMAND =
  'No API key exists: create one with `pnpm keys create --name <label>` (same DATABASE_URL or DATA_DIR) or set API_KEYS, then start again';

/**
 * Decides which keys are accepted. Keys from `API_KEYS` live in memory with every scope; issued keys
 * live in the database, looked up by digest through a bounded cache. In development a start with no
 * usable key anywhere creates one and prints it once; in production such a start fails.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly environmentKeys = new Map<string, ApiKeyPrincipal>();
  private readonly lastUsed: PendingKeyTimes;
  private flushTimer?: NodeJS.Timeout;
  private lastDigest = { token: '', digest: '' };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly cache: ApiKeyCache,
    /** Started once the keys are checked, stopped at shutdown; it feeds the cache (see API_KEY_CHANGES). */
    private readonly changes: ApiKeyChangeListener,
  ) {
    this.lastUsed = new PendingKeyTimes((times) => this.keys.recordUsage(times), this.logger, 'when API keys were last used');
  }

  async onModuleInit(): Promise<void> {
    for (const key of this.config.auth.apiKeys) {
      const digest = hashApiKey(key);
      // Named by its digest, not its position: reordering API_KEYS must not hand one key's idempotency
      // records and log identity to another.
      this.environmentKeys.set(digest, environmentPrincipal(digest));
    }
    // Production demands are reported at once: the configuration's own (CURSOR_SECRET) wait for this
    // one, which only the database can answer.
    const demands = [...this.config.productionDemands];
    if (this.environmentKeys.size === 0 && !(await this.ensureSomeKey())) demands.push(NO_KEY_DEMAND);
    if (demands.length > 0) throw new ConfigError(demands);
    await this.changes.start();
    this.flushTimer = setInterval(() => void this.flushUsage(), USAGE_FLUSH_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.changes.stop();
    await this.flushUsage();
  }

  /**
   * The principal for a presented key, or undefined when no key has its digest. A key that exists but
   * expired or was revoked throws ApiKeyRefusedError, which says so.
   */
  async authenticate(token: string): Promise<ApiKeyPrincipal | undefined> {
    const digest = this.digestOf(token);
    const fromEnvironment = this.environmentKeys.get(digest);
    if (fromEnvironment) return fromEnvironment;
    // Cheap path: a token that cannot be one of ours never reaches the cache or the database.
    if (!API_KEY_FORMAT.test(token)) return undefined;
    const principal = await this.cache.get(digest);
    if (principal) this.lastUsed.set(principal.keyId, new Date());
    return principal;
  }

  /**
   * How a presented token is decided: `known`, accepted without a look-up (an `API_KEYS` entry, or an
   * issued key the cache holds as usable); `lookup`, it needs the database; `refused`, it cannot be a key.
   */
  classify(token: string | undefined): 'known' | 'lookup' | 'refused' {
    if (token === undefined) return 'refused';
    const digest = this.digestOf(token);
    if (this.environmentKeys.has(digest)) return 'known';
    if (!API_KEY_FORMAT.test(token)) return 'refused';
    return this.cache.holdsUsable(digest) ? 'known' : 'lookup';
  }

  /**
   * The guard classifies a token and the strategy authenticates it in one synchronous run, so the
   * last digest is the one asked for again: one SHA-256 a request instead of two (1.5 µs of a GET).
   */
  private digestOf(token: string): string {
    if (this.lastDigest.token !== token) this.lastDigest = { token, digest: hashApiKey(token) };
    return this.lastDigest.digest;
  }

  /** `last used` is written in batches, never once per request. */
  private flushUsage(): Promise<void> {
    return this.lastUsed.flush();
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

/** The principal of an `API_KEYS` entry: `env-` and the first 16 hex digits of its SHA-256 digest. */
function environmentPrincipal(digest: string): ApiKeyPrincipal {
  const keyId = `env-${digest.slice(0, 16)}`;
  return { keyId, label: `API_KEYS entry ${keyId}`, scopes: API_KEY_SCOPES };
}
