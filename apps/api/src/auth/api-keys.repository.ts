import { Injectable } from '@nestjs/common';
import type { QueryResultRow } from 'pg';
import { Database, Statement } from '../database/database';
import { ApiKeyPrincipal, ApiKeyScope, generateApiKey, hashApiKey } from './api-key';
import type { ApiKeyEntity } from './api-key.entity';

/** A refusal of the key tool, worded for the person who ran it. */
export class ApiKeyToolError extends Error {}

export interface NewApiKey {
  label: string;
  scopes: ApiKeyScope[];
  expiresAt?: Date;
}

/** A key as `keys list` shows it: every column but the digest. */
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

/** Runs one statement: on the pool (Database.rows), or on a transaction's connection. */
type Run = <R extends QueryResultRow>(statement: Statement, values: unknown[]) => Promise<R[]>;

// In the order and with the names of the entity's properties: `keys list --json` prints these rows.
const RECORD = `id, label, scopes, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  last_deprecated_call_at AS "lastDeprecatedCallAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", replaced_by AS "replacedBy"`;

const CREATE: Statement = {
  name: 'api_keys_create',
  text: `INSERT INTO api_keys (label, key_hash, scopes, expires_at) VALUES ($1, $2, $3, $4) RETURNING ${RECORD}`,
};
const LIST: Statement = { name: 'api_keys_list', text: `SELECT ${RECORD} FROM api_keys ORDER BY id` };
const FIND_BY_ID: Statement = { name: 'api_keys_find_by_id', text: `SELECT ${RECORD} FROM api_keys WHERE id = $1` };
const LOCK_BY_ID: Statement = { name: 'api_keys_lock_by_id', text: `SELECT ${RECORD} FROM api_keys WHERE id = $1 FOR UPDATE` };
const REVOKE: Statement = { name: 'api_keys_revoke', text: 'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL' };
/** The old key points to its successor and is refused after the grace period (never later than it would have been). */
const REPLACE: Statement = {
  name: 'api_keys_replace',
  text: `UPDATE api_keys SET replaced_by = $2, expires_at = LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => $3))
         WHERE id = $1 RETURNING ${RECORD}`,
};
const FIND_BY_DIGEST: Statement = {
  name: 'api_keys_find_by_digest',
  text: 'SELECT id, label, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1',
};
// Held until the end of the transaction: two instances starting together create one key, not two.
const LOCK_BOOTSTRAP: Statement = { name: 'api_keys_lock_bootstrap', text: `SELECT pg_advisory_xact_lock(hashtext('api_keys bootstrap'))` };
const ANY_USABLE: Statement = {
  name: 'api_keys_any_usable',
  text: 'SELECT 1 FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) LIMIT 1',
};
/** Sets a time column of many keys in one statement, never moving it back. */
const recordTimes = (name: string, column: 'last_used_at' | 'last_deprecated_call_at'): Statement => ({
  name,
  text: `UPDATE api_keys k SET ${column} = GREATEST(k.${column}, u.at)
         FROM unnest($1::bigint[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
});
const RECORD_USAGE = recordTimes('api_keys_record_usage', 'last_used_at');
const RECORD_DEPRECATED_CALLS = recordTimes('api_keys_record_deprecated_calls', 'last_deprecated_call_at');

/**
 * The api_keys table, used by the service and by the key tool alike. Every statement is a fixed one
 * run through Database.rows; the two that must see and change the table together (rotation, the first
 * key) run the same way on one connection inside a TypeORM transaction.
 */
@Injectable()
export class ApiKeysRepository {
  private readonly run: Run;

  constructor(private readonly database: Database) {
    this.run = (statement, values) => database.rows(statement, values);
  }

  create(input: NewApiKey): Promise<IssuedApiKey> {
    return this.insert(input, this.run);
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.run<ApiKeyRecord>(LIST, []);
  }

  /** Revokes a key; revoking a revoked key changes nothing. Returns the key as it now stands. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    await this.run(REVOKE, [checkId(id)]);
    const [key] = await this.run<ApiKeyRecord>(FIND_BY_ID, [id]);
    if (!key) throw new ApiKeyToolError(`No API key has the id ${id}`);
    return key;
  }

  /**
   * Issues a successor with the same label, scopes and expiry (unless `expiresAt` is given); the old key stays valid for `graceMs`
   * (never longer than it would have anyway), then is refused.
   */
  rotate(id: string, graceMs: number, expiresAt?: Date): Promise<{ old: ApiKeyRecord; successor: IssuedApiKey }> {
    return this.transaction(async (run) => {
      const [old] = await run<ApiKeyRecord>(LOCK_BY_ID, [checkId(id)]);
      if (!old) throw new ApiKeyToolError(`No API key has the id ${id}`);
      if (old.revokedAt) throw new ApiKeyToolError(`API key ${id} is revoked; create a new key instead`);
      if (old.replacedBy) throw new ApiKeyToolError(`API key ${id} was already rotated; its successor is ${old.replacedBy}`);
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) throw new ApiKeyToolError(`API key ${id} has expired; create a new key instead`);
      // The successor keeps the old key's expiry unless another is given: rotating never extends a key's life.
      const successor = await this.insert({ label: old.label, scopes: old.scopes, expiresAt: expiresAt ?? old.expiresAt ?? undefined }, run);
      const [replaced] = await run<ApiKeyRecord>(REPLACE, [id, successor.record.id, graceMs / 1000]);
      return { old: replaced, successor };
    });
  }

  /**
   * `exists` when a usable key exists; else the key `input` describes, created (`missing` without
   * `input`). The check and the creation hold one lock: instances starting together create one key.
   */
  firstKey(input: NewApiKey | undefined): Promise<'exists' | 'missing' | IssuedApiKey> {
    return this.transaction(async (run) => {
      await run(LOCK_BOOTSTRAP, []);
      if ((await run(ANY_USABLE, [])).length > 0) return 'exists';
      return input ? this.insert(input, run) : 'missing';
    });
  }

  /** The key with this digest, usable or not (the caller checks revocation and expiry). */
  async findByDigest(digest: string): Promise<StoredKey | undefined> {
    const [row] = await this.run<{ id: string; label: string; scopes: ApiKeyScope[]; expires_at: Date | null; revoked_at: Date | null }>(
      FIND_BY_DIGEST,
      [digest],
    );
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

  private async insert(input: NewApiKey, run: Run): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const [record] = await run<ApiKeyRecord>(CREATE, [input.label, hashApiKey(key), input.scopes, input.expiresAt ?? null]);
    return { key, record };
  }

  private async recordTimes(statement: Statement, times: Map<string, Date>): Promise<void> {
    if (times.size === 0) return;
    await this.run(statement, [[...times.keys()], [...times.values()].map((d) => d.toISOString())]);
  }

  /** `work` on one connection, committed when it resolves and rolled back when it throws. */
  private transaction<T>(work: (run: Run) => Promise<T>): Promise<T> {
    return this.database.dataSource.transaction((manager) =>
      work(async <R>(statement: Statement, values: unknown[]) => (await manager.queryRunner!.query(statement.text, values, true)).records as R[]),
    );
  }
}

function checkId(id: string): string {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new ApiKeyToolError(`"${id.slice(0, 40)}" is not an API key id (see: keys list)`);
  return id;
}
