import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import { MoreThan, Repository } from 'typeorm';
import { PetCursors } from './pet-cursors';
import { PetEntity, toPet } from './pet.entity';

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
    @InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>,
    private readonly cursors: PetCursors,
  ) {}

  /**
   * Pets in ascending id order, so pages are stable. Keyset pagination: each page is an index range
   * scan after the last id of the previous one, as cheap deep in the collection as on the first page.
   */
  async list(query: ListPetsQuery): Promise<PetPage> {
    const limit = query.limit ?? LIST_LIMIT_DEFAULT;
    const after = query.cursor === undefined ? undefined : this.cursors.read(query.cursor, query.status);
    const rows = await this.pets.find({
      where: { ...(after && { id: MoreThan(after) }), ...(query.status && { status: query.status }) },
      order: { id: 'ASC' },
      take: limit + 1, // one more tells whether a next page exists
    });
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? this.cursors.issue(page[page.length - 1].id, query.status) : undefined;
    return { pets: page.map(toPet), next };
  }

  async create(input: NewPet): Promise<Pet> {
    const entity = this.pets.create({
      name: input.name,
      categoryId: input.categoryId,
      status: input.status ?? DEFAULT_PET_STATUS,
    });
    // One INSERT ... RETURNING: no transaction needed around a single statement.
    await this.pets.insert(entity);
    return toPet(entity);
  }

  /** `id` is the decimal text of a positive int64, kept as text so ids beyond 2^53 are not rounded. */
  async get(id: string): Promise<Pet> {
    const entity = await this.pets.findOne({ where: { id } });
    if (!entity) throw new PetNotFoundError(id);
    return toPet(entity);
  }
}
