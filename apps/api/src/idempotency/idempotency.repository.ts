import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BoundedQueries } from '../database/bounded-queries';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

/** How long a key is remembered. */
const RETENTION = '24 hours';
/** A record without an answer is only left by an older version of the service: given up after this, as that version did. */
const ABANDONED = '1 minute';
const EXPIRED = `(created_at < now() - interval '${RETENTION}' OR (status_code IS NULL AND created_at < now() - interval '${ABANDONED}'))`;

// On the path of every keyed request: hand-written SQL through DataSource.query (see pets.repository.ts).
const READ = `SELECT request_hash, status_code, response_body, location, ${EXPIRED} AS expired
  FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`;

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

/** The idempotency_keys table (answers are recorded with `recordAnswer`, in the create's transaction). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: BoundedQueries) {}

  async read(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.db.query<
      Array<{
        request_hash: string;
        status_code: number | null;
        response_body: unknown;
        location: string | null;
        expired: boolean;
      }>
    >(READ, [apiKeyId, key]);
    if (!row) return undefined;
    return { requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body, location: row.location, expired: row.expired };
  }

  /** Removes the key's record if it is still expired (another request may have taken the key since). */
  async forgetExpired(apiKeyId: string, key: string): Promise<void> {
    await this.db.manager((manager) =>
      records(manager).delete().where('api_key_id = :apiKeyId AND idempotency_key = :key', { apiKeyId, key }).andWhere(EXPIRED).execute(),
    );
  }

  /** Removes every record past its retention. */
  async sweep(): Promise<void> {
    await this.db.manager((manager) => records(manager).delete().where(`created_at < now() - interval '${RETENTION}'`).execute());
  }
}

const records = (manager: EntityManager) => manager.getRepository(IdempotencyKeyEntity).createQueryBuilder();
