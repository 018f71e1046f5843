import { Injectable } from '@nestjs/common';
import { NewPet, PET_STATUSES, Pet, PetStatus } from '@petstore/contracts';
import { Database, Statement } from '../database/database';
import { IdempotencyClaim, claimValues, recordingAnswer } from '../idempotency/idempotent.decorator';
import { PET_COLUMNS, PetRow, rowToPet } from './pet.entity';

/*
 * Every operation is one fixed parameterised statement, run by the Database layer (prepared once per
 * connection where the database allows it). Reads are index range scans: the primary key, or
 * (status, id) when filtered.
 */
const LIST_ALL: Statement = { name: 'pets_list', text: `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2` };
/**
 * One statement per status, with the status written in: a named statement soon runs a generic plan,
 * which for `status = $3` could not see that a status is rare (most pets end up sold) and would walk
 * the primary key past every other pet. Written in, the status's own statistics choose the index.
 * Safe to write in: the statuses are the contract's constants, never the client's text.
 */
export const LIST_BY_STATUS = new Map<string, Statement>(
  PET_STATUSES.map((status) => {
    if (!/^[a-z]+$/.test(status)) throw new Error(`status ${status} cannot be written into SQL`);
    const text = `SELECT ${PET_COLUMNS} FROM pets WHERE status = '${status}' AND id > $1 ORDER BY id LIMIT $2`;
    return [status, { name: `pets_list_${status}`, text }];
  }),
);
const GET_ONE: Statement = { name: 'pets_get', text: `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1` };
const INSERT_ONE: Statement = {
  name: 'pets_insert',
  text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${PET_COLUMNS}`,
};
/**
 * A create under an Idempotency-Key: the pet and the answer a retry replays, in one statement. The
 * answer is what rowToPet and the controller's Location make of the row (the idempotency e2e suite
 * checks that a replay is identical to the first answer).
 */
const INSERT_RECORDED = recordingAnswer('pets_insert_recorded', INSERT_ONE, 3, {
  statusCode: 201,
  body: `jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status)`,
  location: `'/v1/pets/' || id`,
});

/** The pets table's statements; rows become the contract's `Pet` through `rowToPet` alone. */
@Injectable()
export class PetsRepository {
  constructor(private readonly database: Database) {}

  /** At most `limit` pets with an id above `after` (decimal text), in ascending id order; of one status when given. */
  async list(status: PetStatus | undefined, after: string, limit: number): Promise<Pet[]> {
    const statement = status ? LIST_BY_STATUS.get(status)! : LIST_ALL;
    return (await this.database.rows<PetRow>(statement, [after, limit])).map(rowToPet);
  }

  /** The pet with id `id` (decimal text of a positive int64), or undefined. */
  async get(id: string): Promise<Pet | undefined> {
    const [row] = await this.database.rows<PetRow>(GET_ONE, [id]);
    return row && rowToPet(row);
  }

  async insert(pet: Required<NewPet>): Promise<Pet> {
    const [row] = await this.database.rows<PetRow>(INSERT_ONE, [pet.name, pet.categoryId, pet.status]);
    return rowToPet(row);
  }

  /** Stores a pet and, in the same statement, the answer to replay under the claim's Idempotency-Key. */
  async insertRecorded(pet: Required<NewPet>, claim: IdempotencyClaim): Promise<Pet> {
    const [row] = await this.database.rows<PetRow>(INSERT_RECORDED, [pet.name, pet.categoryId, pet.status, ...claimValues(claim)]);
    return rowToPet(row);
  }
}
