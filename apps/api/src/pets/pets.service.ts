import { Injectable } from '@nestjs/common';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import type { IdempotencyClaim } from '../idempotency/idempotent.decorator';
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

  /** Under an Idempotency-Key, the pet and the answer a retry replays are stored together. */
  create(input: NewPet, claim?: IdempotencyClaim): Promise<Pet> {
    const pet = { name: input.name, categoryId: input.categoryId, status: input.status ?? DEFAULT_PET_STATUS };
    return claim ? this.pets.insertRecorded(pet, claim) : this.pets.insert(pet);
  }

  /** `id` is the decimal text of a positive int64, kept as text so ids beyond 2^53 are not rounded. */
  async get(id: string): Promise<Pet> {
    const pet = await this.pets.get(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
