import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Database, Statement } from '../database/database';
import { ApiKeyPrincipal, ApiKeyScope, generateApiKey, hashApiKey } from './api-key';
import { ApiKeyEntity } from './api-key.entity';

/** A refusal of the key tool, worded for the person who ran it. */
export class ApiKeyToolError extends Error {}

export interface NewApiKey {
  label: string;
  scopes: ApiKeyScope[];
  expiresAt?: Date;
}

export interface IssuedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  record: ApiKeyEntity;
}

/** A stored key as the request path needs it: revoked and expired keys too, so their refusal can say why. */
export interface StoredKey {
  principal: ApiKeyPrincipal;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const FIND_BY_DIGEST: Statement = {
  name: 'api_keys_find_by_digest',
  text: 'SELECT id, label, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1',
};
/** Sets a time column of many keys in one statement, never moving it back. */
const recordTimes = (name: string, column: 'last_used_at' | 'last_deprecated_call_at'): Statement => ({
  name,
  text: `UPDATE api_keys k SET ${column} = GREATEST(k.${column}, u.at)
         FROM unnest($1::bigint[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
});
const RECORD_USAGE = recordTimes('api_keys_record_usage', 'last_used_at');
const RECORD_DEPRECATED_CALLS = recordTimes('api_keys_record_deprecated_calls', 'last_deprecated_call_at');

/** The api_keys table, used by the service and by the key tool alike. */
export class ApiKeysStore {
  readonly dataSource: DataSource;

  constructor(private readonly database: Database) {
    this.dataSource = database.dataSource;
  }

  async create(input: NewApiKey, manager: EntityManager = this.dataSource.manager): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const repository = manager.getRepository(ApiKeyEntity);
    const { id } = await repository.save(
      repository.create({ label: input.label, keyHash: hashApiKey(key), scopes: input.scopes, expiresAt: input.expiresAt ?? null }),
    );
    return { key, record: await repository.findOneByOrFail({ id }) };
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({ order: { id: 'ASC' } });
  }

  /** Revokes a key; revoking a revoked key changes nothing. Returns the key as it now stands. */
  async revoke(id: string): Promise<ApiKeyEntity> {
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    await repository.update({ id: this.checkId(id), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    const key = await repository.findOneBy({ id });
    if (!key) throw new ApiKeyToolError(`No API key has the id ${id}`);
    return key;
  }

  /**
   * Issues a successor with the same label, scopes and expiry (unless `expiresAt` is given); the old key stays valid for `graceMs`
   * (never longer than it would have anyway), then is refused.
   */
  rotate(id: string, graceMs: number, expiresAt?: Date): Promise<{ old: ApiKeyEntity; successor: IssuedApiKey }> {
    return this.dataSource.transaction(async (manager) => {
      const repository = manager.getRepository(ApiKeyEntity);
      const old = await repository.findOne({ where: { id: this.checkId(id) }, lock: { mode: 'pessimistic_write' } });
      if (!old) throw new ApiKeyToolError(`No API key has the id ${id}`);
      if (old.revokedAt) throw new ApiKeyToolError(`API key ${id} is revoked; create a new key instead`);
      if (old.replacedBy) throw new ApiKeyToolError(`API key ${id} was already rotated; its successor is ${old.replacedBy}`);
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) throw new ApiKeyToolError(`API key ${id} has expired; create a new key instead`);
      // The successor keeps the old key's expiry unless another is given: rotating never extends a key's life.
      const successor = await this.create({ label: old.label, scopes: old.scopes, expiresAt: expiresAt ?? old.expiresAt ?? undefined }, manager);
      await manager.query(
        `UPDATE api_keys SET replaced_by = $2,
           expires_at = LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => $3))
         WHERE id = $1`,
        [id, successor.record.id, graceMs / 1000],
      );
      return { old: await repository.findOneByOrFail({ id }), successor };
    });
  }

  /** The key with this digest, usable or not (the caller checks revocation and expiry). */
  async findByDigest(digest: string): Promise<StoredKey | undefined> {
    const [row] = await this.database.rows<{ id: string; label: string; scopes: ApiKeyScope[]; expires_at: Date | null; revoked_at: Date | null }>(
      FIND_BY_DIGEST,
      [digest],
    );
    return (
      row && { principal: { keyId: String(row.id), label: row.label, scopes: row.scopes }, expiresAt: row.expires_at, revokedAt: row.revoked_at }
    );
  }

  async hasUsableKey(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
    );
    return rows.length > 0;
  }

  /** Records when keys were last used, many keys in one statement. */
  recordUsage(lastUsed: Map<string, Date>): Promise<void> {
    return this.recordTimes(RECORD_USAGE, lastUsed);
  }

  /** Records when keys last called a deprecated operation, many keys in one statement. */
  recordDeprecatedCalls(calledAt: Map<string, Date>): Promise<void> {
    return this.recordTimes(RECORD_DEPRECATED_CALLS, calledAt);
  }

  private async recordTimes(statement: Statement, times: Map<string, Date>): Promise<void> {
    if (times.size === 0) return;
    await this.database.rows(statement, [[...times.keys()], [...times.values()].map((d) => d.toISOString())]);
  }

  private checkId(id: string): string {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new ApiKeyToolError(`"${id.slice(0, 40)}" is not an API key id (see: keys list)`);
    return id;
  }
}
