import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, ListPetsQuery, NewPet, Pet } from '@petstore/contracts';
import { DomainError } from '@petstore/http-errors';
import { Repository } from 'typeorm';
import { PetEntity, toPet } from './pet.entity';

export class PetNotFoundError extends DomainError {
  constructor(id: string) {
    super('not_found', `No pet with id ${id}`);
  }
}

@Injectable()
export class PetsService {
  constructor(@InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>) {}

  /** Pets in ascending id order, so pages are stable. */
  async list(query: ListPetsQuery): Promise<Pet[]> {
    const rows = await this.pets.find({
      where: query.status ? { status: query.status } : {},
      order: { id: 'ASC' },
      take: query.limit ?? LIST_LIMIT_DEFAULT,
    });
    return rows.map(toPet);
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
