import { NewPet, contractProblems } from '@petstore/contracts';
import { expectValidationFailed } from './expectations';
import { TestApp, countPets } from './test-app';
import { AUTH } from './test-key';

/** createPet's suites (pets-create*.e2e-spec.ts): POST /v1/pets with a key, and the check of a refused body. */
export function petCreation(api: TestApp) {
  const post = (body: unknown, headers: Record<string, string> = {}) => api.request('POST', '/v1/pets', { headers: { ...AUTH, ...headers }, body });

  /** A refused request: the exact Error body, the table still empty, and the contracts' check (a client's) refusing it too. */
  async function expectRefused(body: unknown, ...details: [string, string][]) {
    expectValidationFailed(await post(body), ...details);
    expect(await countPets(api)).toBe(0);
    const sent: unknown = typeof body === 'string' ? (body === '' ? undefined : JSON.parse(body)) : body;
    expect(contractProblems(NewPet, sent)).not.toEqual([]);
  }

  return { post, expectRefused };
}
