import { Injectable } from '@nestjs/common';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, PET_STATUSES, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import { Database, Statement } from '../database/database';
import { claimValues, idempotencyClaim, recordingAnswer } from '../idempotency/idempotent.decorator';
import { PetCursors } from './pet-cursors';
import { PET_COLUMNS, PetRow, rowToPet } from './pet.entity';

export class PetNotFoundError extends DomainError {
  constructor(id: string) {
    super('not_found', `No pet with id ${id}`);
  }
}

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

/** One page of the listing, and the cursor of the next one when more items follow. */
export interface PetPage {
  pets: Pet[];
  next?: string;
}

@Injectable()
export class PetsService {
  constructor(
    private readonly database: Database,
    private readonly cursors: PetCursors,
  ) {}

  /**
   * Pets in ascending id order, so pages are stable. Keyset pagination: each page is an index range
   * scan after the last id of the previous one, as cheap deep in the collection as on the first page.
   */
  async list(query: ListPetsQuery): Promise<PetPage> {
    const limit = query.limit ?? LIST_LIMIT_DEFAULT;
    const after = query.cursor === undefined ? undefined : this.cursors.read(query.cursor, query.status);
    // One more row than the page tells whether a next page exists.
    const statement = query.status ? LIST_BY_STATUS.get(query.status)! : LIST_ALL;
    const rows = await this.database.rows<PetRow>(statement, [after ?? '0', limit + 1]);
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    const next = rows.length > limit ? this.cursors.issue(page[page.length - 1].id, query.status) : undefined;
    return { pets: page.map(rowToPet), next };
  }

  async create(input: NewPet): Promise<Pet> {
    // One INSERT ... RETURNING: no transaction needed around a single statement.
    const values = [input.name, input.categoryId, input.status ?? DEFAULT_PET_STATUS];
    const claim = idempotencyClaim();
    if (!claim) return rowToPet((await this.database.rows<PetRow>(INSERT_ONE, values))[0]);
    const [row] = await this.database.rows<PetRow>(INSERT_RECORDED, [...values, ...claimValues(claim)]);
    claim.recorded = true;
    return rowToPet(row);
  }

  /** `id` is the decimal text of a positive int64, kept as text so ids beyond 2^53 are not rounded. */
  async get(id: string): Promise<Pet> {
    const [row] = await this.database.rows<PetRow>(GET_ONE, [id]);
    if (!row) throw new PetNotFoundError(id);
    return rowToPet(row);
  }
}
