import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull, Raw } from 'typeorm';
import { BoundedQueries } from '../database/bounded-queries';
import { ApiKeyPrincipal, ApiKeyScope, generateApiKey, hashApiKey } from './api-key';
import { ApiKeyEntity } from './api-key.entity';

/** A refusal of the key tool, worded for the person who ran it. */
export class ApiKeyToolError extends Error {}

export interface NewApiKey {
  label: string;
  scopes: ApiKeyScope[];
  expiresAt?: Date;
}

/** A key as `keys list` shows it: every column but the digest (which the entity never selects). */
export type ApiKeyRecord = Omit<ApiKeyEntity, 'keyHash' | 'successor'>;

export interface IssuedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

/** A stored key as the request path needs it: revoked and expired keys too, so their refusal can say why. */
export interface StoredKey {
  principal: ApiKeyPrincipal;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

// On the request path (a key not yet cached): hand-written SQL through DataSource.query (see pets.repository.ts).
const FIND_BY_DIGEST = 'SELECT id, label, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1';
/** Sets a time column of many keys in one statement, never moving it back. */
const recordTimes = (column: 'last_used_at' | 'last_deprecated_call_at') =>
  `UPDATE api_keys k SET ${column} = GREATEST(k.${column}, u.at)
   FROM unnest($1::bigint[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`;
const RECORD_USAGE = recordTimes('last_used_at');
const RECORD_DEPRECATED_CALLS = recordTimes('last_deprecated_call_at');

/** The api_keys table, used by the service and by the key tool alike. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: BoundedQueries) {}

  create(input: NewApiKey): Promise<IssuedApiKey> {
    return this.db.transaction((manager) => this.insert(manager, input));
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.db.manager((manager) => manager.find(ApiKeyEntity, { order: { id: 'ASC' } }));
  }

  /** Revokes a key; revoking a revoked key changes nothing. Returns the key as it now stands. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    const key = await this.db.transaction(async (manager) => {
      await manager.update(ApiKeyEntity, { id: checkId(id), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
      return manager.findOneBy(ApiKeyEntity, { id });
    });
    if (!key) throw new ApiKeyToolError(`No API key has the id ${id}`);
    return key;
  }

  /**
   * Issues a successor with the same label, scopes and expiry (unless `expiresAt` is given); the old key stays valid for `graceMs`
   * (never longer than it would have anyway), then is refused.
   */
  rotate(id: string, graceMs: number, expiresAt?: Date): Promise<{ old: ApiKeyRecord; successor: IssuedApiKey }> {
    return this.db.transaction(async (manager) => {
      const old = await manager.findOne(ApiKeyEntity, { where: { id: checkId(id) }, lock: { mode: 'pessimistic_write' } });
      if (!old) throw new ApiKeyToolError(`No API key has the id ${id}`);
      if (old.revokedAt) throw new ApiKeyToolError(`API key ${id} is revoked; create a new key instead`);
      if (old.replacedBy) throw new ApiKeyToolError(`API key ${id} was already rotated; its successor is ${old.replacedBy}`);
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) throw new ApiKeyToolError(`API key ${id} has expired; create a new key instead`);
      // The successor keeps the old key's expiry unless another is given: rotating never extends a key's life.
      const successor = await this.insert(manager, { label: old.label, scopes: old.scopes, expiresAt: expiresAt ?? old.expiresAt ?? undefined });
      await manager
        .createQueryBuilder()
        .update(ApiKeyEntity)
        .set({ replacedBy: successor.record.id, expiresAt: () => `LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => :grace))` })
        .where({ id })
        .setParameters({ grace: graceMs / 1000 })
        .execute();
      return { old: await manager.findOneByOrFail(ApiKeyEntity, { id }), successor };
    });
  }

  /**
   * `exists` when a usable key exists; else the key `input` describes, created (`missing` without
   * `input`). The check and the creation hold one lock: instances starting together create one key.
   */
  firstKey(input: NewApiKey | undefined): Promise<'exists' | 'missing' | IssuedApiKey> {
    return this.db.transaction(async (manager) => {
      // Held until the end of the transaction, so it holds behind a transaction pooler too.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('api_keys bootstrap'))`);
      const usable = await manager.exists(ApiKeyEntity, {
        where: [
          { revokedAt: IsNull(), expiresAt: IsNull() },
          { revokedAt: IsNull(), expiresAt: Raw((column) => `${column} > now()`) },
        ],
      });
      if (usable) return 'exists';
      return input ? this.insert(manager, input) : 'missing';
    });
  }

  /** The key with this digest, usable or not (the caller checks revocation and expiry). */
  async findByDigest(digest: string): Promise<StoredKey | undefined> {
    const [row] = await this.db.query<
      Array<{
        id: string;
        label: string;
        scopes: ApiKeyScope[];
        expires_at: Date | null;
        revoked_at: Date | null;
      }>
    >(FIND_BY_DIGEST, [digest]);
    return (
      row && { principal: { keyId: String(row.id), label: row.label, scopes: row.scopes }, expiresAt: row.expires_at, revokedAt: row.revoked_at }
    );
  }

  /** Records when keys were last used, many keys in one statement. */
  recordUsage(lastUsed: Map<string, Date>): Promise<void> {
    return this.recordTimes(RECORD_USAGE, lastUsed);
  }

  /** Records when keys last called a deprecated operation, many keys in one statement. */
  recordDeprecatedCalls(calledAt: Map<string, Date>): Promise<void> {
    return this.recordTimes(RECORD_DEPRECATED_CALLS, calledAt);
  }

  private async insert(manager: EntityManager, input: NewApiKey): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const { identifiers } = await manager.insert(ApiKeyEntity, {
      label: input.label,
      keyHash: hashApiKey(key),
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
    });
    return { key, record: await manager.findOneByOrFail(ApiKeyEntity, { id: identifiers[0].id as string }) };
  }

  private async recordTimes(sql: string, times: Map<string, Date>): Promise<void> {
    if (times.size === 0) return;
    await this.db.query(sql, [[...times.keys()], [...times.values()].map((d) => d.toISOString())]);
  }
}

function checkId(id: string): string {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new ApiKeyToolError(`"${id.slice(0, 40)}" is not an API key id (see: keys list)`);
  return id;
}
