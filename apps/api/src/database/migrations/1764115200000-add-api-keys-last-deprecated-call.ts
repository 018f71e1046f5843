import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each key last called a deprecated operation, so an operator can find the callers before the
 * sunset. A nullable column with no default: adding it rewrites nothing, and code that does not know
 * it (an older instance during a rolling upgrade) reads and writes the table as before.
 */
export class AddApiKeysLastDeprecatedCall1764115200000 implements MigrationInterface {
  name = 'AddApiKeysLastDeprecatedCall1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN last_deprecated_call_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN last_deprecated_call_at`);
  }
}
