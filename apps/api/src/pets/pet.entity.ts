import { Pet, PetStatus } from '@petstore/contracts';
import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** pg returns bigint as text to avoid precision loss; category ids are bounded by 2^53 - 1. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** The persistence model of an animal; the API shape is `Pet` from @petstore/contracts. */
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

export function toPet(entity: PetEntity): Pet {
  return { id: Number(entity.id), name: entity.name, categoryId: entity.categoryId, status: entity.status };
}
