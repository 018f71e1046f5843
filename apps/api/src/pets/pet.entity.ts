import { Pet, PetStatus } from '@petstore/contracts';
import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** pg returns bigint as text to avoid precision loss; category ids are bounded by 2^53 - 1. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** TypeORM's model of the pets table (created by migrations); the API shape is `Pet` from @petstore/contracts. */
@Entity({ name: 'pets' })
export class PetEntity {
  /** Decimal text of the bigint identity: ids are looked up as text, so none is ever rounded. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'bigint', name: 'category_id', transformer: bigintAsNumber })
  categoryId: number;

  @Column({ type: 'text' })
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
