import type { TestApp, TestResponse } from './test-app';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The headers every answer of the deprecated `getPet` carries, errors included. */
export const GET_PET_DEPRECATION_HEADERS = {
  deprecation: '@1767225600', // 2026-01-01T00:00:00Z
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

export const MISSING_KEY_MESSAGE = 'An API key is required: send "Authorization: Bearer <API key>"';
export const INVALID_KEY_MESSAGE = 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key';

/** Asserts an error answer exactly: status, content type and the whole Error body. */
export function expectError(response: TestResponse, status: number, code: string, message: string, details?: [string, string][]): void {
  const body: Record<string, unknown> = { code, message, status };
  if (details) body.details = details.map(([field, text]) => ({ field, message: text }));
  expect({ status: response.status, contentType: response.headers.get('content-type'), body: response.body }).toEqual({
    status,
    contentType: JSON_CONTENT_TYPE,
    body,
  });
}

/** A 400 `validation_failed` whose details are the given [field, message] pairs, in order. */
export function expectValidationFailed(response: TestResponse, ...details: [string, string][]): void {
  expectError(response, 400, 'validation_failed', details.map(([, message]) => message).join('; '), details);
}

/** A 401 for a request without a usable `Authorization: Bearer` header. */
export function expectMissingKey(response: TestResponse): void {
  expectError(response, 401, 'unauthorized', MISSING_KEY_MESSAGE);
  expect(response.headers.get('www-authenticate')).toBe('Bearer');
}

/** A 401 for a bearer token that is not a known key. */
export function expectInvalidKey(response: TestResponse): void {
  expectError(response, 401, 'unauthorized', INVALID_KEY_MESSAGE);
  expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
}

export function expectDeprecationHeaders(response: TestResponse): void {
  expect({
    deprecation: response.headers.get('deprecation'),
    sunset: response.headers.get('sunset'),
    link: response.headers.get('link'),
  }).toEqual(GET_PET_DEPRECATION_HEADERS);
}

/** Every row of the pets table, in id order, ids as JSON numbers. */
export async function storedPets(api: TestApp): Promise<{ id: number; name: string; categoryId: number; status: string }[]> {
  const result = await api.sql.query<{ id: string; name: string; category_id: string; status: string }>(
    'SELECT id, name, category_id, status FROM pets ORDER BY id',
  );
  return result.rows.map((row) => ({ id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status }));
}

/** Inserts pets straight into the database (ids 1..n after a truncate), for the read tests. */
export async function seedPets(api: TestApp, pets: { name: string; categoryId: number; status: string }[]): Promise<void> {
  if (pets.length === 0) return;
  const values = pets.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
  await api.sql.query(
    `INSERT INTO pets (name, category_id, status) VALUES ${values}`,
    pets.flatMap((pet) => [pet.name, pet.categoryId, pet.status]),
  );
}

export async function truncatePets(api: TestApp): Promise<void> {
  await api.sql.query('TRUNCATE pets RESTART IDENTITY');
}
