import { PetCursors } from '../../apps/api/src/pets/pet-cursors';
import { TestResponse, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { expectValidationFailed } from '../support/expectations';

const INVALID_CURSOR = {
  code: 'validation_failed',
  message: 'cursor is not valid for this listing: follow the rel="next" Link of a previous page, with the same status',
  status: 400,
  details: [
    { field: 'cursor', message: 'cursor is not valid for this listing: follow the rel="next" Link of a previous page, with the same status' },
  ],
};

/** The target of a `Link: <…>; rel="next"` header, or undefined when there is none. */
function nextLink(response: TestResponse): string | undefined {
  const link = response.headers.get('link');
  if (link === null) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`unexpected Link header: ${link}`);
  return match[1];
}

describe('pets pagination (e2e)', () => {
  const api = useTestApp();

  /** Follows the next links from `path` and returns the pages' bodies and the URLs visited. */
  async function walk(path: string, onPage?: (page: number) => Promise<void>) {
    const pages: number[][] = [];
    const urls: string[] = [];
    for (let url: string | undefined = path; url !== undefined;) {
      const response = await api.request('GET', url, { headers: AUTH });
      expect(response.status).toBe(200);
      urls.push(url);
      pages.push(response.body.map((pet: { id: number }) => pet.id));
      url = nextLink(response);
      await onPage?.(pages.length);
    }
    return { pages, urls };
  }

  beforeEach(async () => {
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');
    // 50 pets, ids 1-50, statuses in turn: available, pending, sold, available, ...
    await api.sql.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'pet ' || n, 1, (ARRAY['available', 'pending', 'sold'])[1 + (n - 1) % 3] FROM generate_series(1, 50) AS n`,
    );
  });

  it('walks the whole collection once, in order, keeping the limit; the last page has no next link', async () => {
    const { pages, urls } = await walk('/v1/pets?limit=12');
    expect(pages.map((page) => page.length)).toEqual([12, 12, 12, 12, 2]);
    expect(pages.flat()).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(urls.slice(1).every((url) => /^\/v1\/pets\?limit=12&cursor=[A-Za-z0-9_-]+$/.test(url))).toBe(true);
  });

  it('walks one status once, in order, keeping limit and status in the links', async () => {
    const { pages, urls } = await walk('/v1/pets?limit=5&status=sold');
    const sold = Array.from({ length: 50 }, (_, i) => i + 1).filter((id) => id % 3 === 0);
    expect(pages.flat()).toEqual(sold);
    expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 1]);
    expect(urls.slice(1).every((url) => /^\/v1\/pets\?limit=5&status=sold&cursor=[A-Za-z0-9_-]+$/.test(url))).toBe(true);
  });

  it('uses the default limit (20) when none is given, and gives no link when everything fits', async () => {
    const first = await api.request('GET', '/v1/pets', { headers: AUTH });
    expect(first.body).toHaveLength(20);
    expect(nextLink(first)).toMatch(/^\/v1\/pets\?cursor=[A-Za-z0-9_-]+$/);
    const all = await api.request('GET', '/v1/pets?limit=50', { headers: AUTH });
    expect(all.body).toHaveLength(50);
    expect(all.headers.get('link')).toBeNull();
  });

  it('keeps going past items added while walking, and shows them once at the end', async () => {
    const { pages } = await walk('/v1/pets?limit=5&status=pending', async (page) => {
      if (page === 1) await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'late', categoryId: 1, status: 'pending' } });
    });
    const pending = Array.from({ length: 50 }, (_, i) => i + 1).filter((id) => id % 3 === 2);
    expect(pages.flat()).toEqual([...pending, 51]);
  });

  it('refuses a cursor issued for another status filter', async () => {
    const first = await api.request('GET', '/v1/pets?limit=2&status=available', { headers: AUTH });
    const cursor = new URL(nextLink(first)!, api.baseUrl).searchParams.get('cursor')!;
    for (const query of [`cursor=${cursor}`, `status=sold&cursor=${cursor}`, `status=pending&limit=2&cursor=${cursor}`]) {
      const response = await api.request('GET', `/v1/pets?${query}`, { headers: AUTH });
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body: INVALID_CURSOR });
    }
    const same = await api.request('GET', `/v1/pets?status=available&limit=3&cursor=${cursor}`, { headers: AUTH });
    expect(same.body.map((pet: { id: number }) => pet.id)).toEqual([7, 10, 13]);
  });

  it('refuses garbled, forged and foreign cursors with 400 naming cursor', async () => {
    const first = await api.request('GET', '/v1/pets?limit=2', { headers: AUTH });
    const valid = new URL(nextLink(first)!, api.baseUrl).searchParams.get('cursor')!;
    const flipped = valid.slice(0, 5) + (valid[5] === 'A' ? 'B' : 'A') + valid.slice(6);
    const foreign = new PetCursors({ auth: { cursorSecrets: ['another-deployment-secret-0123456789abcdef'] } }).issue('2', undefined);
    const cursors = [flipped, valid.slice(0, -1), `${valid}A`, foreign, 'abc', 'x'.repeat(201), '%21%21', ''];
    for (const cursor of cursors) {
      const response = await api.request('GET', `/v1/pets?limit=2&cursor=${cursor}`, { headers: AUTH });
      expect({ cursor, status: response.status, body: response.body }).toEqual({ cursor, status: 400, body: INVALID_CURSOR });
    }
    // A valid cursor sent twice: the answer names the repetition, not the value.
    const twice = await api.request('GET', `/v1/pets?limit=2&cursor=${valid}&cursor=${valid}`, { headers: AUTH });
    expectValidationFailed(twice, ['cursor', 'cursor must be given once']);
  });

  it('answers 401 before looking at the cursor', async () => {
    const response = await api.request('GET', '/v1/pets?cursor=garbage');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('unauthorized');
  });

  it('documents the cursor parameter and the Link header', async () => {
    const response = await api.request('GET', '/docs/openapi.json');
    const list = response.body.paths['/pets'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'status', 'cursor']));
    expect(list.responses['200'].headers.Link.description).toContain('rel="next"');
    expect(list.parameters.find((p: { name: string }) => p.name === 'cursor')).toMatchObject({ in: 'query', required: false });
  });
});
