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
/**
 * A record without an answer is only ever left by an older version of the service, which claimed the
 * key before running the request; given up after this, as that version did.
 */
const ABANDONED = '1 minute';

const READ: Statement = {
  name: 'idempotency_read',
  text: `SELECT request_hash, status_code, response_body, location,
           created_at < now() - interval '${RETENTION}'
             OR (status_code IS NULL AND created_at < now() - interval '${ABANDONED}') AS expired
         FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`,
};
const FORGET_EXPIRED: Statement = {
  name: 'idempotency_forget_expired',
  text: `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2
           AND (created_at < now() - interval '${RETENTION}' OR (status_code IS NULL AND created_at < now() - interval '${ABANDONED}'))`,
};
const SWEEP: Statement = { name: 'idempotency_sweep', text: `DELETE FROM idempotency_keys WHERE created_at < now() - interval '${RETENTION}'` };

interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
  location: string | null;
  expired: boolean;
}

/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header) in PostgreSQL, scoped to the
 * API key. A keyed request's answer is recorded by the statement that stores its effect (see
 * `recordingAnswer`); this reads what a key already holds.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly database: Database) {}

  /**
   * The answer to replay for a key that is taken; throws 422 or 409 as the draft says. Undefined when
   * the key is free again (never recorded, or its record expired and was removed): run the request.
   */
  async recorded(apiKeyId: string, key: string, requestHash: string): Promise<StoredResponse | undefined> {
    const [record] = await this.database.rows<IdempotencyRecord>(READ, [apiKeyId, key]);
    if (!record) return undefined;
    if (record.expired) {
      await this.database.rows(FORGET_EXPIRED, [apiKeyId, key]);
      return undefined;
    }
    if (record.request_hash !== requestHash) throw new IdempotencyKeyReusedError();
    if (record.status_code === null) throw new RequestInProgressError();
    return { statusCode: record.status_code, body: record.response_body, location: record.location };
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
