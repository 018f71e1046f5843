import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pets table. The CHECK constraints mirror the validation rules of @petstore/contracts, so the
 * database itself refuses a row the API would refuse; they are never stricter than those rules.
 */
export class CreatePets1763769600000 implements MigrationInterface {
  name = 'CreatePets1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE pets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL
          CONSTRAINT pets_name_length CHECK (char_length(name) BETWEEN 1 AND 255)
          CONSTRAINT pets_name_not_blank CHECK (btrim(name) <> '')
          CONSTRAINT pets_name_no_control CHECK (name !~ '[\\x01-\\x1f\\x7f]'),
        category_id bigint NOT NULL
          CONSTRAINT pets_category_id_range CHECK (category_id BETWEEN 1 AND 9007199254740991),
        status text NOT NULL DEFAULT 'available'
          CONSTRAINT pets_status_known CHECK (status IN ('available', 'pending', 'sold'))
      )`);
    // Serves `WHERE status = $1 ORDER BY id LIMIT $2` as an index range scan; the primary key serves the unfiltered list.
    await queryRunner.query(`CREATE INDEX pets_status_id_idx ON pets (status, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE pets`);
  }
}
