import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key records of POST requests, per API key. The primary key is what makes two
 * instances receiving the same key at once agree: only one INSERT wins.
 */
export class CreateIdempotencyKeys1763942400000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763942400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        api_key_id text NOT NULL,
        idempotency_key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,
        response_body jsonb,
        location text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_key_id, idempotency_key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
