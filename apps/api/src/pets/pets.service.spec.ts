import { Test } from '@nestjs/testing';
import { Pet } from '@petstore/contracts';
import { PetCursors } from './pet-cursors';
import { PetsRepository } from './pets.repository';
import { PetNotFoundError, PetsService } from './pets.service';

/** A pets table in memory, with the repository's methods: what the service decides, without a database. */
class FakePetsRepository implements Pick<PetsRepository, keyof PetsRepository> {
  readonly pets: Pet[] = [];
  readonly recorded: string[] = [];

  async list(status: string | undefined, after: string, limit: number): Promise<Pet[]> {
    return this.pets.filter((pet) => pet.id > Number(after) && (!status || pet.status === status)).slice(0, limit);
  }

  async get(id: string): Promise<Pet | undefined> {
    return this.pets.find((pet) => String(pet.id) === id);
  }

  async insert(pet: Omit<Pet, 'id'>): Promise<Pet> {
    const created = { id: this.pets.length + 1, ...pet };
    this.pets.push(created);
    return created;
  }

  async insertRecorded(pet: Omit<Pet, 'id'>, claim: { key: string }): Promise<Pet> {
    this.recorded.push(claim.key);
    return this.insert(pet);
  }
}

describe('PetsService', () => {
  let service: PetsService;
  let repository: FakePetsRepository;

  beforeEach(async () => {
    repository = new FakePetsRepository();
    const module = await Test.createTestingModule({
      providers: [
        PetsService,
        { provide: PetCursors, useValue: new PetCursors({ auth: { cursorSecrets: ['a-unit-test-cursor-secret-of-32-characters'] } }) },
        { provide: PetsRepository, useValue: repository },
      ],
    }).compile();
    service = module.get(PetsService);
  });

  it('creates a pet with the default status when none is given', async () => {
    expect(await service.create({ name: 'Rex', categoryId: 3 })).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    expect(repository.recorded).toEqual([]);
  });

  it('under an Idempotency-Key, stores the pet with its answer', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3, status: 'sold' }, { apiKeyId: '1', key: 'k-1', requestHash: 'h' });
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
    expect(repository.recorded).toEqual(['k-1']);
  });

  it('pages with the default limit, and a cursor only while more pets follow', async () => {
    for (let i = 0; i < 21; i++) await service.create({ name: `Pet ${i}`, categoryId: 1 });
    const first = await service.list({});
    expect(first.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(first.next).toEqual(expect.any(String));
    const second = await service.list({ cursor: first.next });
    expect(second).toEqual({ pets: [expect.objectContaining({ id: 21 })], next: undefined });
  });

  it('filters by status, and refuses a cursor issued for another filter', async () => {
    for (const status of ['sold', 'pending', 'sold', 'sold'] as const) await service.create({ name: 'A', categoryId: 1, status });
    const page = await service.list({ status: 'sold', limit: 2 });
    expect(page.pets.map((pet) => pet.id)).toEqual([1, 3]);
    expect((await service.list({ status: 'sold', cursor: page.next })).pets.map((pet) => pet.id)).toEqual([4]);
    await expect(service.list({ status: 'pending', cursor: page.next })).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('gets a pet by id, or throws PetNotFoundError', async () => {
    await service.create({ name: 'Rex', categoryId: 3 });
    expect(await service.get('1')).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    await expect(service.get('2')).rejects.toThrow(new PetNotFoundError('2'));
  });
});
