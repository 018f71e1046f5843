import { Injectable } from '@nestjs/common';
import { BoundedQueries } from '../database/bounded-queries';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

const PAST_RETENTION = `created_at < now() - interval '24 hours'`;
/** A record without an answer is only left by an older version of the service: given up after a minute, as that version did. */
const EXPIRED = `(${PAST_RETENTION} OR (status_code IS NULL AND created_at < now() - interval '1 minute'))`;

// Hand-written SQL through EntityManager.query, as in pets.repository.ts.
const READ = `SELECT request_hash AS "requestHash", status_code AS "statusCode", response_body AS body, location, ${EXPIRED} AS expired
  FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`;
const FORGET_EXPIRED = `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2 AND ${EXPIRED}`;
const SWEEP = `DELETE FROM idempotency_keys WHERE ${PAST_RETENTION}`;

/** What an Idempotency-Key holds: the request's hash and the answer to replay; `expired` keys are free once forgotten. */
export type IdempotencyRecord = Pick<IdempotencyKeyEntity, 'requestHash' | 'statusCode' | 'location'> & { body: unknown; expired: boolean };

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: BoundedQueries) {}

  async read(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.db.query<IdempotencyRecord[]>('idempotency_read', READ, [apiKeyId, key]);
    return row;
  }

  /** Removes the key's record if it is still expired (another request may have taken the key since). */
  async forgetExpired(apiKeyId: string, key: string): Promise<void> {
    await this.db.query('idempotency_forget_expired', FORGET_EXPIRED, [apiKeyId, key]);
  }

  async sweep(): Promise<void> {
    await this.db.query('idempotency_sweep', SWEEP);
  }
}
