import { CATEGORY_ID_MAX, DEFAULT_PET_STATUS, NAME_MAX_LENGTH, PET_STATUSES, Pet, PetStatus } from '@petstore/contracts';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn, getMetadataArgsStorage } from 'typeorm';

/**
 * TypeORM's model of the pets table, which the migrations create; the API shape is `Pet` from
 * @petstore/contracts. The CHECKs are the contract's rules in SQL, written from its constants.
 * Drift is caught by test/integration/schema.integration-spec.ts (entity vs migrations),
 * test/integration/pet-rules.integration-spec.ts (CHECKs vs rules) and pet.entity.spec.ts (fields).
 * Rows are read by the hot-path statements and mapped by `rowToPet` alone, never through the entity.
 */
@Entity({ name: 'pets' })
@Check('pets_name_length', `char_length(name) BETWEEN 1 AND ${NAME_MAX_LENGTH}`)
@Check('pets_name_not_blank', `btrim(name) <> ''`)
@Check('pets_name_no_control', `name !~ '[\\x01-\\x1f\\x7f]'`)
@Check('pets_category_id_range', `category_id BETWEEN 1 AND ${CATEGORY_ID_MAX}`)
@Check('pets_status_known', `status IN (${PET_STATUSES.map((status) => `'${status}'`).join(', ')})`)
@Index('pets_status_id_idx', ['status', 'id'])
export class PetEntity {
  /** Decimal text of the bigint identity: ids are looked up as text, so none is ever rounded. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  /** pg returns bigint as text; rowToPet makes it a number (category ids are bounded by 2^53 - 1). */
  @Column({ type: 'bigint', name: 'category_id' })
  categoryId: string;

  @Column({ type: 'text', default: DEFAULT_PET_STATUS })
  status: PetStatus;
}

/** The entity's columns, in order: the select list of the hot-path statements. */
export const PET_COLUMN_NAMES = getMetadataArgsStorage()
  .columns.filter((column) => column.target === PetEntity)
  .map((column) => column.options.name ?? column.propertyName);
export const PET_COLUMNS = PET_COLUMN_NAMES.join(', ');

/** A pets row as the hot-path statements select it (`PET_COLUMNS`); pg returns bigint as text. */
export interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}

/** The one mapping from a row to the API shape: written out, as it runs for every pet of every answer. */
export function rowToPet(row: PetRow): Pet {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status };
}
