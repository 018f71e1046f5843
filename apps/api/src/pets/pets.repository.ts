import { Injectable } from '@nestjs/common';
import { NewPet, Pet, PetStatus } from '@petstore/contracts';
import { BoundedQueries } from '../database/bounded-queries';
import { IdempotencyClaim, recordAnswer } from '../idempotency/idempotency-key.entity';
import { PET_COLUMNS, PetRow, rowToPet } from './pet.entity';

// Hand-written SQL (EntityManager.query): a QueryBuilder or Repository.find costs 100 to 180 µs more a call, a quarter of a request.
const LIST_ALL = `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`;
export const LIST_BY_STATUS = `SELECT ${PET_COLUMNS} FROM pets WHERE status = $3 AND id > $1 ORDER BY id LIMIT $2`;
const GET_ONE = `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`;
/**
 * Creates take this lock before their id and hold it to their commit: ids become visible in order, so a page read
 * after id N has seen every pet below N, and the next one (`id > N`) passes none over. Creates run one at a time.
 */
const INSERT_ONE = `WITH serial AS (SELECT pg_advisory_xact_lock(hashtext('pets ids')))
  INSERT INTO pets (name, category_id, status) SELECT $1, $2, $3 FROM serial RETURNING ${PET_COLUMNS}`;

@Injectable()
export class PetsRepository {
  constructor(private readonly db: BoundedQueries) {}

  /** At most `limit` pets with an id above `after` (decimal text), in ascending id order; of one status when given. */
  async list(status: PetStatus | undefined, after: string, limit: number): Promise<Pet[]> {
    const rows = await this.db.query<PetRow[]>('pets_list', status ? LIST_BY_STATUS : LIST_ALL, status ? [after, limit, status] : [after, limit]);
    return rows.map(rowToPet);
  }

  async get(id: string): Promise<Pet | undefined> {
    const [row] = await this.db.query<PetRow[]>('pets_get', GET_ONE, [id]);
    return row && rowToPet(row);
  }

  async insert(pet: Required<NewPet>): Promise<Pet> {
    const [row] = await this.db.query<PetRow[]>('pets_insert', INSERT_ONE, [pet.name, pet.categoryId, pet.status]);
    return rowToPet(row);
  }

  /** The pet and the answer a retry under the claim's Idempotency-Key replays, in one transaction. */
  insertRecorded(pet: Required<NewPet>, claim: IdempotencyClaim): Promise<Pet> {
    return this.db.transaction('pets_insert_recorded', async (manager) => {
      const [row] = await manager.query<PetRow[]>(INSERT_ONE, [pet.name, pet.categoryId, pet.status]);
      const created = rowToPet(row);
      await recordAnswer(manager, claim, { statusCode: 201, responseBody: created, location: `/v1/pets/${created.id}` });
      return created;
    });
  }
}
