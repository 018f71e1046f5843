import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { ListPetsQuery, Pet } from '@petstore/contracts';
import type { paths as documentPaths } from './schema';

export type { components, operations } from './schema';
// One name in both packages: the contracts' own types, imported for types only (nothing of it is loaded).
export type { ApiError, ListPetsQuery, NewPet, Pet, PetStatus } from '@petstore/contracts';

/** The document's paths served under the base address (`…/v1`); the health checks' server is `/`, so they are left out. */
export type paths = { [P in keyof documentPaths as P extends `/health/${string}` ? never : P]: documentPaths[P] };

export interface PetStoreClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** The API's base address, ending in `/v1` (e.g. `https://petstore.example.com/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey?: string | undefined; // `process.env.KEY` under exactOptionalPropertyTypes too
  /** Headers sent on every request. */
  headers?: Record<string, string> | undefined;
}

export type PetStoreClient = Client<paths>;

/** A client typed from the OpenAPI document (src/schema.ts, from `pnpm client:generate`); openapi-fetch makes the calls. */
export function createPetStoreClient({ baseUrl, apiKey, headers, ...options }: PetStoreClientOptions): PetStoreClient {
  const auth = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  return createClient<paths>({ ...options, baseUrl, headers: { ...auth, ...headers } });
}

/** The pages of `GET /pets`, following the cursor of each rel="next" Link (its path holds `/v1`, as baseUrl does); errors thrown. */
export async function* paginate(api: PetStoreClient, query: ListPetsQuery = {}): AsyncGenerator<Pet[], void> {
  let cursor = query.cursor;
  do {
    const { data, error, response } = await api.GET('/pets', { params: { query: { ...query, cursor } } });
    if (error) throw new Error(`${error.code}: ${error.message}`, { cause: error });
    yield data;
    cursor = /<[^>]*[?&]cursor=([^&>]+)[^>]*>\s*;\s*rel="?next\b/.exec(response.headers.get('link') ?? '')?.[1];
  } while (cursor !== undefined);
}
