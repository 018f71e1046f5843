import { Injectable } from '@nestjs/common';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import { idempotencyClaim } from '../idempotency/idempotent.decorator';
import { PetCursors } from './pet-cursors';
import { PetsRepository } from './pets.repository';

export class PetNotFoundError extends DomainError {
  constructor(id: string) {
    super('not_found', `No pet with id ${id}`);
  }
}

/** One page of the listing, and the cursor of the next one when more items follow. */
export interface PetPage {
  pets: Pet[];
  next?: string;
}

@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly cursors: PetCursors,
  ) {}

  /**
   * Pets in ascending id order, so pages are stable. Keyset pagination: each page is an index range
   * scan after the last id of the previous one, as cheap deep in the collection as on the first page.
   */
  async list(query: ListPetsQuery): Promise<PetPage> {
    const limit = query.limit ?? LIST_LIMIT_DEFAULT;
    const after = query.cursor === undefined ? undefined : this.cursors.read(query.cursor, query.status);
    // One more pet than the page tells whether a next page exists.
    const pets = await this.pets.list(query.status, after ?? '0', limit + 1);
    if (pets.length <= limit) return { pets, next: undefined };
    const page = pets.slice(0, limit);
    // Ids are exact as numbers: the sequence stops at 2^53 - 1 (migration CapPetIds).
    return { pets: page, next: this.cursors.issue(String(page[page.length - 1].id), query.status) };
  }

  /** Under an Idempotency-Key, the pet and its answer are stored by one statement, and the claim says so. */
  async create(input: NewPet): Promise<Pet> {
    const pet = { name: input.name, categoryId: input.categoryId, status: input.status ?? DEFAULT_PET_STATUS };
    const claim = idempotencyClaim();
    if (!claim) return this.pets.insert(pet);
    const created = await this.pets.insertRecorded(pet, claim);
    claim.recorded = true;
    return created;
  }

  /** `id` is the decimal text of a positive int64, kept as text so ids beyond 2^53 are not rounded. */
  async get(id: string): Promise<Pet> {
    const pet = await this.pets.get(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
