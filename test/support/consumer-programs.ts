import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** consumer-packages.e2e-spec.ts's consumer: the programs it type-checks and runs, and docs/contract.md's examples. */
const CONTRACT_DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'contract.md'), 'utf8');

/** The code block that follows `marker` in docs/contract.md's "Using the contracts from another repository". */
export function documentedExample(marker: string): string {
  const section = CONTRACT_DOC.slice(CONTRACT_DOC.indexOf('## Using the contracts from another repository'));
  const after = section.slice(section.indexOf(marker));
  const match = /```\w+\n([\s\S]*?)```/.exec(after);
  if (!section || !match) throw new Error(`docs/contract.md has no example after "${marker}"`);
  return match[1];
}

/** A consumer's ES module and CommonJS files beside the documented ones: the packages used, nothing else. */
export const ESM = `
import { ERROR_CATALOGUE, NewPet, PetStatus } from '@petstore/contracts';
import { createPetStoreClient, type Pet } from '@petstore/client';
const pet: NewPet = { name: 'Esm', categoryId: 4, status: PetStatus.Sold };
const api = createPetStoreClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY });
const { data } = await api.POST('/pets', { body: pet });
const created: Pet | undefined = data;
// @ts-expect-error the health checks are not under the base address (/v1): the client does not offer them
const notUnderV1 = () => api.GET('/health/live');
console.log(JSON.stringify({ created: created?.name, unauthorized: ERROR_CATALOGUE.unauthorized.status }));
`;
export const CJS = `
import contracts = require('@petstore/contracts');
import client = require('@petstore/client');
const api = client.createPetStoreClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY });
api.GET('/pets', { params: { query: { status: 'sold' } } }).then(({ data }) => {
  const names: string[] = (data ?? []).map((pet: client.Pet) => pet.name);
  console.log(JSON.stringify({ names, code: contracts.ErrorCode.NotFound }));
});
`;

/** Walks every page with paginate(), as all pets and as one status, and says what it saw. */
const walk = `
const api = createPetStoreClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY });
async function walk(query: ListPetsQuery) {
  const pages: Pet[][] = [];
  for await (const page of paginate(api, query)) pages.push(page);
  const ids = pages.flat().map((pet) => pet.id);
  const statuses = [...new Set(pages.flat().map((pet) => pet.status))].sort();
  return { sizes: pages.map((page) => page.length), distinct: new Set(ids).size, ascending: ids.every((id, i) => i === 0 || id > ids[i - 1]), statuses };
}
`;
export const PAGINATE_ESM = `
import { ApiError, Pet, PetStatus } from '@petstore/contracts';
import { createPetStoreClient, paginate, type ListPetsQuery } from '@petstore/client';
${walk}
const refused = await paginate(api, { limit: 0 }).next().then(() => 'no error', (error: Error) => (error.cause as ApiError).code);
console.log(JSON.stringify([await walk({ limit: 100 }), await walk({ status: PetStatus.Pending, limit: 30 }), refused]));
`;
// The client's types only: neither @petstore/contracts nor class-validator is loaded at run time.
export const PAGINATE_CJS = `
import { createPetStoreClient, paginate, type ListPetsQuery, type Pet } from '@petstore/client';
${walk}
(async () => [await walk({ limit: 45 }), await walk({ status: 'sold', limit: 20 })])().then((walks) => {
  const loaded = Object.keys(require.cache).filter((file) => /class-validator|@petstore.contracts/.test(file));
  console.log(JSON.stringify({ walks, loaded }));
});
`;

/** A consumer's program: type-checked against the package's declarations, then run. */
export const CONSUMER = `
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ApiError, ErrorCode, NewPet, Pet, PetStatus } from '@petstore/contracts';

const good: NewPet = { name: 'Rex', categoryId: 3, status: PetStatus.Pending };
// @ts-expect-error categoryId is required
const missing: NewPet = { name: 'Rex' };
const pet: Pet = { id: 1, ...good, status: PetStatus.Available };
const error: ApiError = { code: ErrorCode.NotFound, message: 'no such pet', status: 404 };

const problems = (input: object) =>
  validateSync(plainToInstance(NewPet, input)).map((failure) => failure.property);
console.log(JSON.stringify({
  good: problems(good),
  bad: problems({ name: '', categoryId: '3', status: 'lost' }),
  pet: pet.id,
  error: error.code,
  missing: missing.name,
}));
`;
