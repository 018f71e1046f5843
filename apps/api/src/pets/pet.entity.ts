import { CATEGORY_ID_MAX, DEFAULT_PET_STATUS, NAME_MAX_LENGTH, PET_STATUSES, Pet, PetStatus } from '@petstore/contracts';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn, getMetadataArgsStorage } from 'typeorm';

/** The pets table (the migrations create it), its CHECKs the contract's rules; rows are mapped by `rowToPet` alone, never through the entity. */
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

  @Column({ type: 'bigint', name: 'category_id' })
  categoryId: string;

  @Column({ type: 'text', default: DEFAULT_PET_STATUS })
  status: PetStatus;
}

export const PET_COLUMN_NAMES = getMetadataArgsStorage()
  .columns.filter((column) => column.target === PetEntity)
  .map((column) => column.options.name ?? column.propertyName);
export const PET_COLUMNS = PET_COLUMN_NAMES.join(', ');

/** A row as pg returns it: the entity's columns by their names, bigint as text. */
export type PetRow = Omit<PetEntity, 'categoryId'> & { category_id: string };

/** The one mapping from a row to the API shape: written out, as it runs for every pet of every answer. */
export function rowToPet(row: PetRow): Pet {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status };
}
