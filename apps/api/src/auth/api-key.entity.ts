import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ApiKeyScope } from './api-key';

/** One issued API key, stored only as its SHA-256 digest; the migrations create the table (schema.integration-spec checks drift). */
@Entity({ name: 'api_keys' })
@Check('api_keys_label_length', 'char_length(label) BETWEEN 1 AND 100')
@Check('api_keys_key_hash_sha256', `key_hash ~ '^[0-9a-f]{64}$'`)
@Check('api_keys_scopes_known', `scopes <@ ARRAY['pets:read', 'pets:write', 'orders:read']`)
@Unique('api_keys_key_hash_unique', ['keyHash'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'text' })
  label: string;

  @Column({ type: 'text', name: 'key_hash', select: false })
  keyHash: string;

  @Column({ type: 'text', array: true })
  scopes: ApiKeyScope[];

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  /** The last call of a deprecated operation with this key, recorded at most once a minute per key. */
  @Column({ type: 'timestamptz', name: 'last_deprecated_call_at', nullable: true })
  lastDeprecatedCallAt: Date | null;

  /** After this instant the key is refused; rotation sets it to the end of the grace period. */
  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'bigint', name: 'replaced_by', nullable: true })
  replacedBy: string | null;

  @ManyToOne(() => ApiKeyEntity, { nullable: true, createForeignKeyConstraints: true })
  @JoinColumn({ name: 'replaced_by', foreignKeyConstraintName: 'api_keys_replaced_by_fkey' })
  successor?: ApiKeyEntity;
}
