import { untilRefused } from './keys-tool';
import { parseExposition, valueOf } from './prometheus';
import type { TestApp } from './test-app';

/* What the service answers for an issued key (api-keys.e2e-spec.ts): the scopes, the refusals, the key cache. */

/** Each operation and the scope it needs: [path in the OpenAPI document, method, scope]. */
export const SCOPED_OPERATIONS = [
  ['/pets', 'get', 'pets:read'],
  ['/pets', 'post', 'pets:write'],
  ['/pets/{petId}', 'get', 'pets:read'],
  ['/store/orders', 'get', 'orders:read'],
];

/** The 403 body for a key that lacks `scope`. */
export const forbidden = (scope: string) => ({
  code: 'forbidden',
  message: `This API key lacks the ${scope} scope that this operation needs`,
  status: 403,
});

/** The refusal of a key the service does not know (or of another shape): it learns nothing more. */
export const INVALID_KEY_REFUSAL = {
  status: 401,
  challenge: 'Bearer error="invalid_token"',
  body: { code: 'unauthorized', message: 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key', status: 401 },
};

/** The key cache's misses so far (a look-up in the database), from /metrics. */
export const keyCacheMisses = async (api: TestApp) =>
  valueOf(parseExposition((await api.request('GET', '/metrics', { contract: false })).text), 'petstore_api_key_cache_lookups_total', {
    result: 'miss',
  });

/** GET /v1/pets with `key` until refused (within `ms`): the refusal's status, challenge and body. */
export async function refusalOf(api: TestApp, key: string, ms: number) {
  const response = await untilRefused(api, key, ms);
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: response.body };
}
