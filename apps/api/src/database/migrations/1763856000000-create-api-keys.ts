import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys, stored only as SHA-256 digests. A change that can end a key's life (revocation, expiry,
 * rotation, scopes, deletion) is announced on the `api_keys_changed` channel with the key's digest,
 * so every running instance drops it from its cache at once (PostgreSQL LISTEN/NOTIFY).
 */
export class CreateApiKeys1763856000000 implements MigrationInterface {
  name = 'CreateApiKeys1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        label text NOT NULL CONSTRAINT api_keys_label_length CHECK (char_length(label) BETWEEN 1 AND 100),
        key_hash text NOT NULL CONSTRAINT api_keys_key_hash_unique UNIQUE
          CONSTRAINT api_keys_key_hash_sha256 CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        scopes text[] NOT NULL
          CONSTRAINT api_keys_scopes_known CHECK (scopes <@ ARRAY['pets:read', 'pets:write', 'orders:read']),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        expires_at timestamptz,
        revoked_at timestamptz,
        replaced_by bigint REFERENCES api_keys (id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION api_keys_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('api_keys_changed', OLD.key_hash);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER api_keys_changed AFTER UPDATE OF revoked_at, expires_at, scopes, key_hash OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_notify_change()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP FUNCTION api_keys_notify_change()`);
  }
}
