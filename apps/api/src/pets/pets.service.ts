import { Injectable } from '@nestjs/common';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import type { IdempotencyClaim } from '../idempotency/idempotency-key.entity';
import { PetCursors } from './pet-cursors';
import { PetsRepository } from './pets.repository';

export class PetNotFoundError extends DomainError {
  constructor(id: string) {
    super('not_found', `No pet with id ${id}`);
  }
}

@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly cursors: PetCursors,
  ) {}

  /** Keyset pagination in ascending id order: each page is an index range scan after the previous page's last id. */
  async list(query: ListPetsQuery): Promise<{ pets: Pet[]; next?: string }> {
    const limit = query.limit ?? LIST_LIMIT_DEFAULT;
    const after = query.cursor === undefined ? '0' : this.cursors.read(query.cursor, query.status);
    // One more pet than the page tells whether a next page exists.
    const pets = await this.pets.list(query.status, after, limit + 1);
    if (pets.length <= limit) return { pets };
    return { pets: pets.slice(0, limit), next: this.cursors.issue(String(pets[limit - 1].id), query.status) };
  }

  create(input: NewPet, claim?: IdempotencyClaim): Promise<Pet> {
    const pet = { name: input.name, categoryId: input.categoryId, status: input.status ?? DEFAULT_PET_STATUS };
    return claim ? this.pets.insertRecorded(pet, claim) : this.pets.insert(pet);
  }

  /** `id` is decimal text, so ids beyond 2^53 are not rounded. */
  async get(id: string): Promise<Pet> {
    const pet = await this.pets.get(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
