import { Client } from 'pg';
import { useDataSource } from '../support/data-source';
import { BoundedQueries } from '../../apps/api/src/database/bounded-queries';
import { PetsRepository } from '../../apps/api/src/pets/pets.repository';

/** PGlite serves one session at a time: there, creates cannot overlap. */
const onServer = process.env.DATABASE_URL ? it : it.skip;

/** Keyset pages (`id > last`) while creates overlap: a pet committed after a later one must not be passed over. */
describe('pages of pets while creates overlap', () => {
  // No statement timeout: the test holds a create mid-transaction for as long as it needs.
  const suite = useDataSource({ poolSize: 3, timeouts: false });
  let pets: PetsRepository;
  let holder: Client;

  beforeAll(() => (pets = new PetsRepository(new BoundedQueries(suite.dataSource, suite.target))));
  // Its own connection, ended before the suite's database is dropped.
  beforeEach(async () => {
    holder = new Client({ connectionString: suite.database.url });
    await holder.connect();
  });
  afterEach(() => holder.end());

  /** Until `query` (on the holder's connection) finds a row, or `done` settles: events, not time. */
  async function until(query: string, done: Promise<unknown> = new Promise(() => undefined)): Promise<void> {
    let settled = false;
    void done.finally(() => (settled = true));
    while (!settled && (await holder.query(query)).rowCount === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  onServer('a create that takes its id first and commits last is still on the page after the last pet seen', async () => {
    const first = await pets.insert({ name: 'first', categoryId: 1, status: 'available' });
    // The idempotent create's second statement waits on this lock, its pet's id taken and not committed.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE idempotency_keys IN SHARE MODE');
    const claim = { apiKeyId: 'env-test', key: 'slow', requestHash: 'h' };
    const slow = pets.insertRecorded({ name: 'slow', categoryId: 1, status: 'available' }, claim);
    await until(`SELECT 1 FROM pg_locks WHERE relation = 'idempotency_keys'::regclass AND NOT granted`);
    // A later create: it commits at once, or waits for the slow one to commit first.
    const later = pets.insert({ name: 'later', categoryId: 1, status: 'available' });
    await until(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`, later);
    const page = await pets.list(undefined, String(first.id), 10);
    await holder.query('COMMIT');
    const [slowPet, laterPet] = await Promise.all([slow, later]);
    expect(laterPet.id).toBeGreaterThan(slowPet.id);
    // The next page starts after the last pet seen, as the Link's cursor does.
    const next = await pets.list(undefined, String(page.at(-1)?.id ?? first.id), 10);
    expect([...page, ...next].map((pet) => pet.name)).toEqual(['slow', 'later']);
  });
});
