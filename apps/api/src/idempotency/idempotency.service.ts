import { createHash } from 'node:crypto';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DomainError } from '@petstore/http-errors';
import { Database, Statement } from '../database/database';

export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
  }
}

export class RequestInProgressError extends DomainError {
  constructor() {
    super('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
  }
}

export interface StoredResponse {
  statusCode: number;
  body: unknown;
  location: string | null;
}

/** How long a key is remembered. */
const RETENTION = '24 hours';
/** A claim never completed nor released (its instance died) is given up after this. */
const ABANDONED = '1 minute';

// Inserts, or takes over a record past its retention or abandoned; returns nothing when a live record exists.
const CLAIM: Statement = {
  name: 'idempotency_claim',
  text: `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash) VALUES ($1, $2, $3)
         ON CONFLICT (api_key_id, idempotency_key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, status_code = NULL, response_body = NULL, location = NULL, created_at = now()
           WHERE idempotency_keys.created_at < now() - interval '${RETENTION}'
              OR (idempotency_keys.status_code IS NULL AND idempotency_keys.created_at < now() - interval '${ABANDONED}')
         RETURNING 1`,
};
const READ: Statement = {
  name: 'idempotency_read',
  text: `SELECT request_hash, status_code, response_body, location FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`,
};
const COMPLETE: Statement = {
  name: 'idempotency_complete',
  text: `UPDATE idempotency_keys SET status_code = $3, response_body = $4, location = $5 WHERE api_key_id = $1 AND idempotency_key = $2`,
};
const RELEASE: Statement = {
  name: 'idempotency_release',
  text: `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2 AND status_code IS NULL`,
};
const SWEEP: Statement = { name: 'idempotency_sweep', text: `DELETE FROM idempotency_keys WHERE created_at < now() - interval '${RETENTION}'` };

interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
  location: string | null;
}

/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header) in PostgreSQL, scoped to the
 * API key. The first request claims the key with one INSERT … ON CONFLICT, so of several requests
 * with one key, on any number of instances, exactly one runs.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly database: Database) {}

  /** Claims the key, or returns the answer to replay; throws 422 or 409 as the draft says. */
  async begin(apiKeyId: string, key: string, requestHash: string): Promise<StoredResponse | undefined> {
    const claimed = await this.database.rows(CLAIM, [apiKeyId, key, requestHash]);
    if (claimed.length > 0) return undefined;
    const [record] = await this.database.rows<IdempotencyRecord>(READ, [apiKeyId, key]);
    if (!record) return this.begin(apiKeyId, key, requestHash); // released in between: try again
    if (record.request_hash !== requestHash) throw new IdempotencyKeyReusedError();
    if (record.status_code === null) throw new RequestInProgressError();
    return { statusCode: record.status_code, body: record.response_body, location: record.location };
  }

  async complete(apiKeyId: string, key: string, response: StoredResponse): Promise<void> {
    await this.database.rows(COMPLETE, [apiKeyId, key, response.statusCode, JSON.stringify(response.body), response.location]);
  }

  /** A request that failed keeps no record, so the client may retry it with the same key. */
  async release(apiKeyId: string, key: string): Promise<void> {
    await this.database.rows(RELEASE, [apiKeyId, key]);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.database.rows(SWEEP, []).catch(() => undefined);
    }, 3_600_000);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}
/** The same JSON value gives the same hash, whatever the order of its object properties. */
export function hashRequestBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
