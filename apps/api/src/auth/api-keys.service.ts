import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { UnauthorizedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { Strategy } from 'passport-http-bearer';
import { APP_CONFIG, AppConfig, ConfigError } from '../config/config';
import { Metrics } from '../observability/metrics';
import { API_KEY_FORMAT, API_KEY_SCOPES, ApiKeyPrincipal, hashApiKey } from './api-key';
import { ApiKeysRepository, StoredKey } from './api-keys.repository';
import type { AuthenticatedRequest } from './bearer-auth.guard';

const NO_KEY_DEMAND =
  'No API key exists: create one with `pnpm keys create --name <label>` (`./keys.sh create --name <label>` in the image; same DATABASE_URL or DATA_DIR) or set API_KEYS, then start again';

const WRITES = { last_used_at: 'recordUsage', last_deprecated_call_at: 'recordDeprecatedCalls' };

/** A known key refused: the answer says why (RFC 6750 error_description); an unknown key is just invalid. */
const refused = (why: string) => new UnauthorizedError(`The API key ${why}: send a current key`, true, `The access token ${why}`);

/** Why a stored key is refused now, if it is. */
const refusal = (key: StoredKey) => (key.revokedAt ? 'was revoked' : key.expiresAt && key.expiresAt.getTime() <= Date.now() ? 'expired' : undefined);

/** The bearer strategy: API_KEYS entries and issued keys, cached 3 s by digest so every instance refuses a revoked key within 5 s. */
@Injectable()
export class ApiKeysService extends PassportStrategy(Strategy, 'bearer') implements OnModuleInit {
  private readonly logger = new Logger('ApiKeys');
  private readonly environmentKeys = new Map<string, ApiKeyPrincipal>();
  /** Digest → stored key (false: none); concurrent look-ups of one digest share one query. */
  private readonly cache = new LRUCache<string, StoredKey | false>({ max: 10_000, ttl: 3_000, fetchMethod: (digest) => this.lookUp(digest) });
  /** Keys whose deprecated call was written within the minute: no database write per request. */
  private readonly deprecatedCallers = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly metrics: Metrics,
  ) {
    super();
  }

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

  async validate(token: string): Promise<ApiKeyPrincipal | false> {
    const digest = hashApiKey(token);
    const fromEnvironment = this.environmentKeys.get(digest);
    if (fromEnvironment) return fromEnvironment;
    if (!API_KEY_FORMAT.test(token)) return false; // cannot be an issued key: no look-up
    const status: LRUCache.Status<string, StoredKey | false> = {};
    const key = await this.cache.fetch(digest, { status });
    (status.fetch === 'hit' ? this.metrics.keyCache.hit : this.metrics.keyCache.miss).inc();
    if (!key) return false;
    const why = refusal(key);
    if (why) throw refused(why);
    return key.principal;
  }

  /** Counts every answered call of a deprecated operation, and writes its key's time of it at most once a minute (`keys list`). */
  deprecatedCalls(operation: string): (request: FastifyRequest) => void {
    const count = this.metrics.deprecatedCall(operation);
    return (request) => {
      count.inc();
      const keyId = (request as AuthenticatedRequest).apiKey?.keyId;
      // API_KEYS entries (`env-…`) have no row: the request log names them.
      if (keyId && !keyId.startsWith('env-') && !this.deprecatedCallers.has(keyId)) {
        this.deprecatedCallers.set(keyId, true);
        this.record('last_deprecated_call_at', keyId);
      }
    };
  }

  private async lookUp(digest: string): Promise<StoredKey | false> {
    const key = await this.keys.findByDigest(digest);
    // "last used" is written with each look-up of a key the request is then accepted with: at most once per cache lifetime.
    if (key && !refusal(key)) this.record('last_used_at', key.principal.keyId);
    return key ?? false;
  }

  /** In the background: a failed write is logged, and fails no request. */
  private record(column: 'last_used_at' | 'last_deprecated_call_at', keyId: string): void {
    this.keys
      .recordTime(column, keyId, new Date())
      .catch((error: Error) => this.logger.warn(`${WRITES[column]} of API key ${keyId} failed: ${error.message}`));
  }

  /** False when production has no usable key (development creates one and prints it once). */
  private async ensureSomeKey(): Promise<boolean> {
    const development = this.config.nodeEnv !== 'production';
    const created = await this.keys.firstKey(development ? { label: 'development key', scopes: [...API_KEY_SCOPES] } : undefined);
    if (typeof created === 'string') return created === 'exists';
    // On the console only, never through the logger: it is the key itself.
    console.log(
      `No API key existed, so development key ${created.record.id} was created. It is shown only this once:\n  Authorization: Bearer ${created.key}`,
    );
    return true;
  }
}
