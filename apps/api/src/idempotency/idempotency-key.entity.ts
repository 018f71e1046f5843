import { Column, Entity, EntityManager, Index, PrimaryColumn } from 'typeorm';

/** The answer a retry with the same Idempotency-Key replays; the primary key lets only one of two concurrent INSERTs win. */
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

/** The key a keyed request runs under; `requestHash` is read when the answer is stored, after the body is parsed and valid. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  readonly requestHash: string;
}

type RecordedAnswer = Pick<IdempotencyKeyEntity, 'statusCode' | 'responseBody' | 'location'>;

/** Records `answer` in `manager`'s transaction, the effect's: a key already recorded fails it (idempotency_keys_pkey). */
export async function recordAnswer(manager: EntityManager, claim: IdempotencyClaim, answer: RecordedAnswer): Promise<void> {
  await manager.insert(IdempotencyKeyEntity, { apiKeyId: claim.apiKeyId, idempotencyKey: claim.key, requestHash: claim.requestHash, ...answer });
}
