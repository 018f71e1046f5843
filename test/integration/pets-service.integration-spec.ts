import { isDatabaseUnavailable, mapError } from '@petstore/http-errors';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { useDataSource } from '../support/data-source';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';
import { BoundedQueries } from '../../apps/api/src/database/bounded-queries';
import { databaseOptions } from '../../apps/api/src/database/database.options';
import { PetCursors } from '../../apps/api/src/pets/pet-cursors';
import { LIST_BY_STATUS, PetsRepository } from '../../apps/api/src/pets/pets.repository';
import { PetNotFoundError, PetsService } from '../../apps/api/src/pets/pets.service';

/** The service on a real PostgreSQL of its own (server or embedded), schema from the migrations. */
describe('PetsService', () => {
  const suite = useDataSource({ poolSize: 2 });
  let dataSource: DataSource;
  let service: PetsService;

  beforeAll(() => {
    dataSource = suite.dataSource;
    service = new PetsService(
      new PetsRepository(new BoundedQueries(dataSource, suite.target)),
      new PetCursors({ auth: { cursorSecrets: ['a-test-cursor-secret-of-at-least-32-characters'] } }),
    );
  });
  beforeEach(async () => {
    await dataSource.query('TRUNCATE pets RESTART IDENTITY');
  });

  describe('create', () => {
    it('gives an animal without status the default status available', async () => {
      expect(await service.create({ name: 'Rex', categoryId: 3 })).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
      expect(await dataSource.query('SELECT id, name, category_id, status FROM pets')).toEqual([
        { id: '1', name: 'Rex', category_id: '3', status: 'available' },
      ]);
    });

    it('keeps a given status and the name exactly as given', async () => {
      expect(await service.create({ name: '  Ré🐶  ', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' })).toEqual({
        id: 1,
        name: '  Ré🐶  ',
        categoryId: Number.MAX_SAFE_INTEGER,
        status: 'sold',
      });
    });

    it('draws ids from a sequence that stops at 2^53 - 1, so every id is exact as a JSON number', async () => {
      const [{ max }] = await dataSource.query(
        `SELECT seqmax::text AS max FROM pg_sequence WHERE seqrelid = pg_get_serial_sequence('pets', 'id')::regclass`,
      );
      expect(max).toBe(String(Number.MAX_SAFE_INTEGER));
    });

    it('assigns increasing ids as numbers', async () => {
      const first = await service.create({ name: 'A', categoryId: 1 });
      const second = await service.create({ name: 'A', categoryId: 1 });
      expect([first.id, second.id]).toEqual([1, 2]);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      for (let i = 1; i <= 25; i++) {
        await service.create({ name: `Pet ${i}`, categoryId: i, status: i % 2 === 0 ? 'pending' : 'available' });
      }
    });

    it('returns at most 20 pets in ascending id order when no limit is given', async () => {
      const { pets } = await service.list({});
      expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(pets[0]).toEqual({ id: 1, name: 'Pet 1', categoryId: 1, status: 'available' });
    });

    it('returns at most limit pets', async () => {
      expect((await service.list({ limit: 3 })).pets.map((p) => p.id)).toEqual([1, 2, 3]);
      expect((await service.list({ limit: 100 })).pets).toHaveLength(25);
    });

    it('keeps ascending id order even when rows were stored out of order', async () => {
      await dataSource.query("UPDATE pets SET name = 'changed' WHERE id = 1");
      expect((await service.list({ limit: 2 })).pets.map((p) => p.id)).toEqual([1, 2]);
    });

    it('filters by status', async () => {
      const { pets } = await service.list({ status: 'pending', limit: 100 });
      expect(pets.map((p) => p.id)).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
      expect(await service.list({ status: 'sold' })).toEqual({ pets: [] });
    });
  });

  describe('the statement of a status filter', () => {
    it(
      'scans the (status, id) index for a rare status: each statement is planned with its values',
      async () => {
        // Most pets sold, the available ones all at the end: walking the primary key would pass every sold one.
        // The rows go in over a connection without the service's query timeout: on a busy machine 50,000
        // inserts may take longer than a request may, and this test waits for them, however long.
        const setup = new Client({ connectionString: suite.database.url });
        await setup.connect();
        try {
          await setup.query(
            `INSERT INTO pets (name, category_id, status)
           SELECT 'pet', 1, CASE WHEN n > 49900 THEN 'available' ELSE 'sold' END FROM generate_series(1, 50000) AS n`,
          );
          await setup.query('ANALYZE pets');
        } finally {
          await setup.end();
        }
        const [{ 'QUERY PLAN': plan }] = await dataSource.query(`EXPLAIN (FORMAT JSON) ${LIST_BY_STATUS}`, ['0', 21, 'available']);
        expect(JSON.stringify(plan)).toContain('"Index Name":"pets_status_id_idx"');
        expect(JSON.stringify(plan)).not.toContain('"Index Name":"pets_pkey"');
      },
      STARTUP_TIMEOUT_MS,
    );
  });

  describe('get', () => {
    it('returns the pet with that id', async () => {
      await service.create({ name: 'Rex', categoryId: 3, status: 'pending' });
      expect(await service.get('1')).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'pending' });
    });

    it('throws PetNotFoundError (not_found) for an id with no pet, even beyond 2^53', async () => {
      await expect(service.get('2')).rejects.toThrow(new PetNotFoundError('2'));
      const error = await service.get('9223372036854775807').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetNotFoundError);
      expect(error).toMatchObject({ code: 'not_found', message: 'No pet with id 9223372036854775807' });
    });
  });

  describe('errors from the real driver, as the error mapping sees them', () => {
    it('a database that cannot be reached is service_unavailable', async () => {
      const unreachable = new DataSource(databaseOptions({ url: 'postgres://postgres@127.0.0.1:1/none', embedded: true }, 1));
      const error = await unreachable.initialize().catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(mapError(error, { method: 'GET', url: '/v1/pets' }).body.code).toBe('service_unavailable');
    });

    it('a constraint violation wrapped by TypeORM is an internal_error that leaks nothing', async () => {
      const error = await dataSource.query("INSERT INTO pets (name, category_id) VALUES ('', 0)").catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'QueryFailedError' });
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(mapError(error, { method: 'POST', url: '/v1/pets' }).body).toEqual({
        code: 'internal_error',
        message: 'An unexpected error occurred; it has been logged',
        status: 500,
      });
    });
  });
});
