import { EntityManager, IsNull, Raw } from 'typeorm';
import { BoundedQueries } from '../database/bounded-queries';
import { ApiKeyPrincipal, ApiKeyScope, generateApiKey, hashApiKey } from './api-key';
import { ApiKeyEntity } from './api-key.entity';

/** A refusal of the key tool, worded for the person who ran it. */
export class ApiKeyToolError extends Error {}

type NewApiKey = { label: string; scopes: ApiKeyScope[]; expiresAt?: Date | null };
/** A key as `keys list` shows it: every column but the digest (which the entity never selects). */
export type ApiKeyRecord = Omit<ApiKeyEntity, 'keyHash' | 'successor'>;
/** `key`: the key itself, shown once, never stored. */
type IssuedApiKey = { key: string; record: ApiKeyRecord };
/** A stored key, revoked and expired ones too, so that their refusal can say why. */
export type StoredKey = { principal: ApiKeyPrincipal; expiresAt: Date | null; revokedAt: Date | null };

/** No decorator: the key tool builds it without loading Nest (AuthModule provides it by a factory). */
export class ApiKeysRepository {
  constructor(private readonly db: BoundedQueries) {}

  create(input: NewApiKey): Promise<IssuedApiKey> {
    return this.db.transaction('api_keys_create', (manager) => this.insert(manager, input));
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.db.manager('api_keys_list', (manager) => manager.find(ApiKeyEntity, { order: { id: 'ASC' } }));
  }

  /** Revokes a key; revoking a revoked key changes nothing. Returns the key as it now stands. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    const key = await this.db.transaction('api_keys_revoke', async (manager) => {
      await manager.update(ApiKeyEntity, { id: checkId(id), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
      return manager.findOneBy(ApiKeyEntity, { id });
    });
    if (!key) throw new ApiKeyToolError(`No API key has the id ${id}`);
    return key;
  }

  /** Issues a successor with the same label, scopes and expiry (unless given); the old key stays valid for `graceMs` at most. */
  rotate(id: string, graceMs: number, expiresAt?: Date): Promise<{ old: ApiKeyRecord; successor: IssuedApiKey }> {
    return this.db.transaction('api_keys_replace', async (manager) => {
      const old = await manager.findOne(ApiKeyEntity, { where: { id: checkId(id) }, lock: { mode: 'pessimistic_write' } });
      if (!old) throw new ApiKeyToolError(`No API key has the id ${id}`);
      if (old.revokedAt) throw new ApiKeyToolError(`API key ${id} is revoked; create a new key instead`);
      if (old.replacedBy) throw new ApiKeyToolError(`API key ${id} was already rotated; its successor is ${old.replacedBy}`);
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) throw new ApiKeyToolError(`API key ${id} has expired; create a new key instead`);
      // The successor keeps the old key's expiry unless another is given: rotating never extends a key's life.
      const successor = await this.insert(manager, { label: old.label, scopes: old.scopes, expiresAt: expiresAt ?? old.expiresAt });
      const expiry = `LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => ${graceMs / 1000}))`;
      await manager.update(ApiKeyEntity, { id }, { replacedBy: successor.record.id, expiresAt: () => expiry });
      return { old: await manager.findOneByOrFail(ApiKeyEntity, { id }), successor };
    });
  }

  /** `exists` when a usable key exists; else `input`'s key, created (or `missing`), under one lock across instances. */
  firstKey(input: NewApiKey | undefined): Promise<'exists' | 'missing' | IssuedApiKey> {
    return this.db.transaction('api_keys_any_usable', async (manager) => {
      // Held until the end of the transaction, so it holds behind a transaction pooler too.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('api_keys bootstrap'))`);
      const usable = await manager.existsBy(ApiKeyEntity, { revokedAt: IsNull(), expiresAt: Raw((at) => `(${at} IS NULL OR ${at} > now())`) });
      if (usable) return 'exists';
      return input ? this.insert(manager, input) : 'missing';
    });
  }

  /** On the request path (a key not yet cached): hand-written SQL through EntityManager.query (see pets.repository.ts). */
  async findByDigest(digest: string): Promise<StoredKey | undefined> {
    type Row = { id: string; label: string; scopes: ApiKeyScope[]; expires_at: Date | null; revoked_at: Date | null };
    const sql = 'SELECT id, label, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1';
    const [row] = await this.db.query<Row[]>('api_keys_find_by_digest', sql, [digest]);
    if (row)
      return { principal: { keyId: String(row.id), label: row.label, scopes: row.scopes }, expiresAt: row.expires_at, revokedAt: row.revoked_at };
  }

  async recordTime(column: 'last_used_at' | 'last_deprecated_call_at', keyId: string, at: Date): Promise<void> {
    const name = column === 'last_used_at' ? 'api_keys_record_usage' : 'api_keys_record_deprecated_calls';
    await this.db.query(name, `UPDATE api_keys SET ${column} = GREATEST(${column}, $2) WHERE id = $1`, [keyId, at.toISOString()]);
  }

  private async insert(manager: EntityManager, input: NewApiKey): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const { identifiers } = await manager.insert(ApiKeyEntity, { ...input, keyHash: hashApiKey(key) });
    return { key, record: await manager.findOneByOrFail(ApiKeyEntity, { id: identifiers[0].id as string }) };
  }
}

function checkId(id: string): string {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new ApiKeyToolError(`"${id.slice(0, 40)}" is not an API key id (see: keys list)`);
  return id;
}
