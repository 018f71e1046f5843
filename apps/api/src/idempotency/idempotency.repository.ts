import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BoundedQueries } from '../database/bounded-queries';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

const RETENTION = '24 hours';
/** A record without an answer is only left by an older version of the service: given up after this, as that version did. */
const ABANDONED = '1 minute';
const EXPIRED = `(created_at < now() - interval '${RETENTION}' OR (status_code IS NULL AND created_at < now() - interval '${ABANDONED}'))`;

// On the path of every keyed request: hand-written SQL through DataSource.query (see pets.repository.ts).
const READ = `SELECT request_hash AS "requestHash", status_code AS "statusCode", response_body AS body, location, ${EXPIRED} AS expired
  FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`;

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
    await this.db.manager('idempotency_forget_expired', (manager) =>
      records(manager).delete().where('api_key_id = :apiKeyId AND idempotency_key = :key', { apiKeyId, key }).andWhere(EXPIRED).execute(),
    );
  }

  async sweep(): Promise<void> {
    await this.db.manager('idempotency_sweep', (manager) =>
      records(manager).delete().where(`created_at < now() - interval '${RETENTION}'`).execute(),
    );
  }
}

const records = (manager: EntityManager) => manager.getRepository(IdempotencyKeyEntity).createQueryBuilder();
