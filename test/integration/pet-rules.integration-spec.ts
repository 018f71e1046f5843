import fc from 'fast-check';
import { CATEGORY_ID_MAX, NAME_MAX_LENGTH, NewPet, PET_STATUSES, contractProblems } from '@petstore/contracts';
import { useDataSource } from '../support/data-source';

/**
 * The pets table's CHECKs repeat the contract's rules in SQL, twice: in the migrations (which build the
 * real schema) and in PetEntity (which TypeORM compares by constraint name only). Here the rules and a
 * table built each way judge the same values: the database must accept every pet the API accepts, and
 * refuse at the boundaries what the API refuses, so a limit changed in one place only fails this suite.
 */
describe.each(['migrations', 'entities'] as const)('the CHECKs of a pets table built by the %s against the contract rules', (builtBy) => {
  const suite = useDataSource({ build: builtBy });

  const valid = { name: 'Rex', categoryId: 3, status: 'available' };
  const apiAccepts = (pet: object) => contractProblems(NewPet, pet).length === 0;
  /** True when the row goes in; false on a CHECK violation; any other failure fails the test. */
  async function databaseAccepts(pet: { name: unknown; categoryId: unknown; status: unknown }): Promise<boolean> {
    try {
      await suite.dataSource.query('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)', [pet.name, pet.categoryId, pet.status]);
      return true;
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23514') return false;
      throw error;
    }
  }

  const cases: Array<[string, object]> = [
    ['a one-character name', { name: 'R' }],
    [`a name of ${NAME_MAX_LENGTH} characters`, { name: 'x'.repeat(NAME_MAX_LENGTH) }],
    [`a name of ${NAME_MAX_LENGTH + 1} characters`, { name: 'x'.repeat(NAME_MAX_LENGTH + 1) }],
    [`a name of ${NAME_MAX_LENGTH} astral characters`, { name: '🐶'.repeat(NAME_MAX_LENGTH) }],
    [`a name of ${NAME_MAX_LENGTH + 1} astral characters`, { name: '🐶'.repeat(NAME_MAX_LENGTH + 1) }],
    ['the empty name', { name: '' }],
    ['a name of spaces', { name: '   ' }],
    ['a name with surrounding spaces', { name: '  Rex  ' }],
    ['a name with a tab', { name: 'R\tex' }],
    ['a name with a newline', { name: 'R\nex' }],
    ['a name with U+001F', { name: 'R\u001fex' }],
    ['a name with DEL', { name: 'R\u007fex' }],
    ['a name with a C1 character', { name: 'R\u0085ex' }],
    ['category 0', { categoryId: 0 }],
    ['category 1', { categoryId: 1 }],
    ['category -1', { categoryId: -1 }],
    [`category ${CATEGORY_ID_MAX}`, { categoryId: CATEGORY_ID_MAX }],
    [`category ${CATEGORY_ID_MAX + 1}`, { categoryId: CATEGORY_ID_MAX + 1 }],
    ...PET_STATUSES.map((status): [string, object] => [`status ${status}`, { status }]),
    ['an unknown status', { status: 'lost' }],
    ['a status in capitals', { status: 'AVAILABLE' }],
  ];

  it.each(cases)('agree on %s', async (_case, change) => {
    const pet = { ...valid, ...change };
    expect(await databaseAccepts(pet)).toBe(apiAccepts(pet));
  });

  it('the database accepts every name the API accepts (it is never stricter)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: NAME_MAX_LENGTH + 5 }), async (name) => {
        const pet = { ...valid, name };
        if (apiAccepts(pet)) expect(await databaseAccepts(pet)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
