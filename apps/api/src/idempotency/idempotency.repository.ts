import { Injectable } from '@nestjs/common';
import { Database, Statement } from '../database/database';

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

/** What an Idempotency-Key holds: the request's hash and, once answered, the answer to replay. */
export interface IdempotencyRecord {
  requestHash: string;
  /** Null while the request has no recorded answer. */
  statusCode: number | null;
  body: unknown;
  location: string | null;
  /** Past its retention, or abandoned: the key is free again once the record is forgotten. */
  expired: boolean;
}

interface IdempotencyRow {
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
  location: string | null;
  expired: boolean;
}

/**
 * The idempotency_keys table's statements (the rows a keyed create records come from its feature's
 * `recordingAnswer` statement).
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  async read(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.database.rows<IdempotencyRow>(READ, [apiKeyId, key]);
    if (!row) return undefined;
    return { requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body, location: row.location, expired: row.expired };
  }

  /** Removes the key's record if it is still expired (another request may have taken the key since). */
  async forgetExpired(apiKeyId: string, key: string): Promise<void> {
    await this.database.rows(FORGET_EXPIRED, [apiKeyId, key]);
  }

  /** Removes every record past its retention. */
  async sweep(): Promise<void> {
    await this.database.rows(SWEEP, []);
  }
}
