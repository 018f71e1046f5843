import { Column, Entity, EntityManager, Index, PrimaryColumn } from 'typeorm';

/**
 * An Idempotency-Key record, per API key: the request's hash and the answer a retry replays. The
 * primary key makes two instances receiving the same key at once agree: only one INSERT wins.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_at_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'text', name: 'api_key_id', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  apiKeyId: string;

  @PrimaryColumn({ type: 'text', name: 'idempotency_key', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  idempotencyKey: string;

  @Column({ type: 'text', name: 'request_hash' })
  requestHash: string;

  /** Null only in records of older versions, which claimed the key before running the request. */
  @Column({ type: 'integer', name: 'status_code', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', name: 'response_body', nullable: true })
  responseBody: object | null;

  @Column({ type: 'text', nullable: true })
  location: string | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}

/** The key a keyed request runs under. */
export interface IdempotencyKeyRef {
  apiKeyId: string;
  key: string;
  requestHash: string;
}

/** The answer a retry replays. */
export interface RecordedAnswer {
  statusCode: number;
  body: object;
  location: string | null;
}

/**
 * Records `answer` under `claim` in the transaction of `manager`, the one that stores the effect: both
 * are kept or neither. A key already recorded fails it (unique violation on idempotency_keys_pkey),
 * and a second request with the key waits on the first's insert until that commits.
 */
export async function recordAnswer(manager: EntityManager, claim: IdempotencyKeyRef, answer: RecordedAnswer): Promise<void> {
  await manager.insert(IdempotencyKeyEntity, {
    apiKeyId: claim.apiKeyId,
    idempotencyKey: claim.key,
    requestHash: claim.requestHash,
    statusCode: answer.statusCode,
    responseBody: answer.body,
    location: answer.location,
  });
}
