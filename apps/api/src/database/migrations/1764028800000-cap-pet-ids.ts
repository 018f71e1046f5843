import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ids are returned as JSON numbers, which clients hold exactly only up to 2^53 - 1; the identity
 * sequence stops there, so no id is ever rounded on its way out.
 */
export class CapPetIds1764028800000 implements MigrationInterface {
  name = 'CapPetIds1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE pets ALTER COLUMN id SET MAXVALUE 9007199254740991`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE pets ALTER COLUMN id SET MAXVALUE 9223372036854775807`);
  }
}
