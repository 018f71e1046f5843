import { countPets, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

/**
 * A keyed create whose instance fails between storing the pet and recording its answer must not lead
 * to a second pet: the retry replays the first pet, or creates the only one. The fault is injected in
 * the database: a trigger that fails (or stalls, then loses its connection) the write of the answer.
 */
describe('Idempotency-Key across a failure in the middle of a create', () => {
  const api = useTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  const body = { name: 'Once', categoryId: 4 };
  const post = (key: string) => api.request('POST', '/v1/pets', { headers: { ...AUTH, 'idempotency-key': key }, body });

  beforeEach(async () => {
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');
    await api.sql.query('TRUNCATE idempotency_keys');
  });
  afterEach(async () => {
    await api.sql.query('DROP TRIGGER IF EXISTS fault ON idempotency_keys');
  });

  /** Installs `action` to run when the answer (a status code) is written, once. */
  async function injectOnAnswer(action: string): Promise<void> {
    await api.sql.query(`
      CREATE OR REPLACE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status_code IS NOT NULL THEN ${action}; END IF;
        RETURN NEW;
      END $$`);
    await api.sql.query('CREATE TRIGGER fault BEFORE INSERT OR UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION fault()');
  }

  /** The retries a client makes: now, and (records aged past any abandonment) once more. Returns the statuses and ids. */
  async function retries(key: string): Promise<Array<{ status: number; id?: number }>> {
    const answers: Array<{ status: number; id?: number }> = [];
    const now = await post(key);
    answers.push({ status: now.status, id: now.body?.id });
    await api.sql.query(`UPDATE idempotency_keys SET created_at = created_at - interval '2 minutes'`);
    const later = await post(key);
    answers.push({ status: later.status, id: later.body?.id });
    return answers;
  }

  it('keeps one pet when recording the answer fails after the pet was stored, and every retry answers it', async () => {
    await injectOnAnswer(`RAISE EXCEPTION 'injected: the answer could not be recorded'`);
    const first = await post('fail-on-answer');
    expect(first.status).toBe(500);
    await api.sql.query('DROP TRIGGER fault ON idempotency_keys');

    const answers = await retries('fail-on-answer');
    const pets = await countPets(api);
    console.log(`answer write failed: first 500, retries ${JSON.stringify(answers)}, ${pets} pet(s) stored`);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(answers[1].id).toBe(answers[0].id);
    expect(pets).toBe(1);
  });

  // The embedded database runs one statement at a time, so the stalled one cannot be terminated from beside it.
  (process.env.DATABASE_URL ? it : it.skip)(
    'keeps one pet when the connection dies while the answer is being recorded (needs a PostgreSQL server)',
    async () => {
      await injectOnAnswer('PERFORM pg_sleep(5)');
      const pending = post('killed-mid-create');
      // The instance's connection dies mid-statement, as when its host is killed.
      for (let i = 0; i < 100; i++) {
        const stalled = await api.sql.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%idempotency_keys%' AND state = 'active'`,
        );
        if (stalled.rows.length > 0) {
          await api.sql.query('SELECT pg_terminate_backend($1)', [stalled.rows[0].pid]);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const first = await pending;
      expect(first.status).toBe(503);
      await api.sql.query('DROP TRIGGER fault ON idempotency_keys');

      const answers = await retries('killed-mid-create');
      const pets = await countPets(api);
      console.log(`connection killed mid-create: first ${first.status}, retries ${JSON.stringify(answers)}, ${pets} pet(s) stored`);
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
      expect(answers[1].id).toBe(answers[0].id);
      expect(pets).toBe(1);
    },
  );
});
