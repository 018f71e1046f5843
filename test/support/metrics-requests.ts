import { randomBytes } from 'node:crypto';
import { AUTH } from './test-key';

/** The metrics suites' scrape token (metrics*.e2e-spec.ts), and the headers that present it. */
export const METRICS_TOKEN = 'metrics-e2e-7f3a9c2b5d8e1f4a6b0c9d2e5f8a1b4c';
export const SCRAPE = { authorization: `Bearer ${METRICS_TOKEN}` };
/** A well-formed key that was never issued: it goes through the key cache (an API_KEYS key does not). */
export const UNKNOWN_KEY = `pet_${randomBytes(32).toString('base64url')}`;

/** metrics.e2e-spec.ts's scripted requests after creating pet `id`: method, path, headers, body and the status each gets. */
export function scriptedRequests(id: number): [string, string, Record<string, string>, unknown, number][] {
  return [
    ['GET', '/v1/pets', AUTH, undefined, 200],
    ['GET', '/v1/pets?limit=1', AUTH, undefined, 200],
    ['GET', '/v1/pets?limit=1&access_token=x', AUTH, undefined, 200],
    ['GET', `/v1/pets/${id}`, AUTH, undefined, 200],
    ['GET', '/v1/pets/999999999', AUTH, undefined, 404],
    ['GET', '/v1/pets/999999998', AUTH, undefined, 404],
    ['GET', '/v1/pets/abc', AUTH, undefined, 400],
    ['GET', '/v1/pets', {}, undefined, 401],
    ['GET', '/v1/pets/1', {}, undefined, 401],
    ['GET', '/v1/pets', { authorization: `Bearer ${UNKNOWN_KEY}` }, undefined, 401],
    ['GET', '/v1/pets', { authorization: `Bearer ${UNKNOWN_KEY}` }, undefined, 401],
    ['POST', '/v1/pets', { ...AUTH, 'idempotency-key': 'metrics-1' }, { name: 'Ada', categoryId: 2 }, 201],
    ['POST', '/v1/pets', { ...AUTH, 'idempotency-key': 'metrics-1' }, { name: 'Ada', categoryId: 2 }, 201],
    ['POST', '/v1/pets', { ...AUTH, 'idempotency-key': 'metrics-1' }, { name: 'Bob', categoryId: 2 }, 422],
    ['GET', '/nowhere', AUTH, undefined, 404],
    ['GET', '/v1/pets/1/extra', AUTH, undefined, 404],
    ['DELETE', '/v1/pets', AUTH, undefined, 405],
    ['GET', '/v1/store/orders', AUTH, undefined, 501],
  ];
}
