import { runLoad } from '../support/load';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

describe('concurrent creates (e2e)', () => {
  const api = useTestApp({ RATE_LIMIT_PER_MINUTE: '0' });

  it('2,000 creates from 50 concurrent clients give 2,000 distinct ids, each listed once', async () => {
    const { outcomes } = await runLoad({
      baseUrl: api.baseUrl,
      headers: AUTH,
      concurrency: 50,
      count: 40,
      next: (c, i) => ({ method: 'POST', path: '/v1/pets', body: { name: `client ${c} pet ${i}`, categoryId: c + 1 } }),
    });
    expect(outcomes).toHaveLength(2000);
    expect(outcomes.filter((o) => o.status !== 201).map((o) => `${o.status} ${JSON.stringify(o.body)}`)).toEqual([]);
    const ids = outcomes.map((o) => o.body.id as number);
    expect(new Set(ids).size).toBe(2000);
    for (const o of outcomes) expect(o.headers.get('location')).toBe(`/v1/pets/${o.body.id}`);

    // Every stored row is one of the answered pets, exactly once, with what was sent.
    const rows = (await api.sql.query<{ id: string; name: string; category_id: string }>('SELECT id, name, category_id FROM pets ORDER BY id')).rows;
    expect(rows).toHaveLength(2000);
    const sent = new Map(outcomes.map((o) => [o.body.id as number, o.request.body as { name: string; categoryId: number }]));
    for (const row of rows) expect(sent.get(Number(row.id))).toEqual({ name: row.name, categoryId: Number(row.category_id) });

    // The first page of the API agrees with the database.
    const page = await api.request('GET', '/v1/pets?limit=100', { headers: AUTH });
    expect(page.status).toBe(200);
    expect(page.body.map((p: { id: number }) => p.id)).toEqual(rows.slice(0, 100).map((r) => Number(r.id)));
  }, 240000);
});
