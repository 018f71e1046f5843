import { DEFAULT_PET_STATUS, Pet, PetStatus } from '@petstore/contracts';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** pg returns bigint as text to avoid precision loss; category ids are bounded by 2^53 - 1. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * TypeORM's model of the pets table, which the migrations create; the API shape is `Pet` from
 * @petstore/contracts. test/integration/schema.integration-spec.ts fails when the two differ.
 */
@Entity({ name: 'pets' })
@Check('pets_name_length', 'char_length(name) BETWEEN 1 AND 255')
@Check('pets_name_not_blank', `btrim(name) <> ''`)
@Check('pets_name_no_control', `name !~ '[\\x01-\\x1f\\x7f]'`)
@Check('pets_category_id_range', 'category_id BETWEEN 1 AND 9007199254740991')
@Check('pets_status_known', `status IN ('available', 'pending', 'sold')`)
@Index('pets_status_id_idx', ['status', 'id'])
export class PetEntity {
  /** Decimal text of the bigint identity: ids are looked up as text, so none is ever rounded. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'bigint', name: 'category_id', transformer: bigintAsNumber })
  categoryId: number;

  @Column({ type: 'text', default: DEFAULT_PET_STATUS })
  status: PetStatus;
}

/** A pets row as the hot-path statements select it (`PET_COLUMNS`); pg returns bigint as text. */
export interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}
export const PET_COLUMNS = 'id, name, category_id, status';

export function rowToPet(row: PetRow): Pet {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status };
}
