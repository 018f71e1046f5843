import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ApiKeyScope } from './api-key';

/** One issued API key. The key itself is never stored: only its SHA-256 digest. */
@Entity({ name: 'api_keys' })
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

  /** After this instant the key is refused; rotation sets it to the end of the grace period. */
  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  /** The successor issued when this key was rotated. */
  @Column({ type: 'bigint', name: 'replaced_by', nullable: true })
  replacedBy: string | null;
}
