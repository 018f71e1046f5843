import { LIST_PETS_QUERY_FIELDS, ListPetsQuery, NEW_PET_FIELDS, NewPet } from './pet.dto';
import { validateInput } from './validate';

const body = (input: unknown) => validateInput(NewPet, input, { fields: NEW_PET_FIELDS, unknown: 'reject', subject: 'body' });
const query = (input: unknown) => validateInput(ListPetsQuery, input, { fields: LIST_PETS_QUERY_FIELDS, unknown: 'ignore', subject: 'query' });

describe('validateInput', () => {
  describe('NewPet bodies (unknown properties rejected)', () => {
    it('returns a NewPet instance holding exactly the given values', () => {
      const result = body({ name: 'Rex', categoryId: 3, status: 'sold' });
      expect(result).toEqual({ ok: true, value: { name: 'Rex', categoryId: 3, status: 'sold' } });
      expect(result.ok && result.value).toBeInstanceOf(NewPet);
    });

    it('leaves an omitted status undefined (the service applies the default)', () => {
      expect(body({ name: 'Rex', categoryId: 3 })).toEqual({ ok: true, value: { name: 'Rex', categoryId: 3 } });
    });

    it.each([null, [], 'Rex', 5, true, undefined])('refuses %p as not an object', (input) => {
      expect(body(input)).toEqual({ ok: false, errors: [{ field: 'body', message: 'body must be a JSON object' }] });
    });

    it.each([
      [
        'an object with a constructor key',
        { name: 'rex', categoryId: { constructor: { prototype: {} } } },
        [{ field: 'categoryId', message: 'categoryId must be an integer from 1 to 9007199254740991' }],
      ],
      ['an object as the name', { name: { constructor: 1 }, categoryId: 1 }, [{ field: 'name', message: 'name must be a string' }]],
      [
        'a name nested 30,000 arrays deep',
        JSON.parse(`{"name":${'['.repeat(30_000)}${']'.repeat(30_000)},"categoryId":1}`),
        [{ field: 'name', message: 'name must be a string' }],
      ],
      [
        'an array as the status',
        { name: 'rex', categoryId: 1, status: ['sold'] },
        [{ field: 'status', message: 'status must be one of: available, pending, sold' }],
      ],
    ])('refuses %s as a wrong type, without handing it to class-transformer', (_case, input, errors) => {
      expect(body(input)).toEqual({ ok: false, errors });
    });

    it('does not coerce types: "5" is not an integer, 5 is not a string', () => {
      expect(body({ name: 5, categoryId: '5' })).toEqual({
        ok: false,
        errors: [
          { field: 'name', message: 'name must be a string' },
          { field: 'categoryId', message: 'categoryId must be an integer from 1 to 9007199254740991' },
        ],
      });
    });

    it('refuses a null status rather than treating it as omitted', () => {
      expect(body({ name: 'Rex', categoryId: 1, status: null })).toEqual({
        ok: false,
        errors: [{ field: 'status', message: 'status must be one of: available, pending, sold' }],
      });
    });

    it('names every unknown property, after the declared fields, including __proto__', () => {
      const input = JSON.parse('{"zeta":1,"__proto__":{"status":"sold"},"id":2,"name":""}');
      expect(body(input)).toEqual({
        ok: false,
        errors: [
          { field: 'name', message: 'name must be 1 to 255 characters long' },
          { field: 'categoryId', message: 'categoryId is required' },
          { field: 'zeta', message: 'property zeta is not allowed' },
          { field: '__proto__', message: 'property __proto__ is not allowed' },
          { field: 'id', message: 'property id is not allowed' },
        ],
      });
    });

    it('never lets __proto__ change the prototype of the result', () => {
      const result = validateInput(NewPet, JSON.parse('{"__proto__":{"polluted":true},"name":"Rex","categoryId":1}'), {
        fields: NEW_PET_FIELDS,
        unknown: 'ignore',
        subject: 'body',
      });
      expect(result.ok).toBe(true);
      expect(result.ok && (result.value as unknown as { polluted?: boolean }).polluted).toBeUndefined();
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    });
  });

  describe('ListPetsQuery (unknown parameters ignored)', () => {
    it('converts plain digits and keeps the status', () => {
      expect(query({ limit: '7', status: 'pending', other: 'x' })).toEqual({ ok: true, value: { limit: 7, status: 'pending' } });
    });

    it.each([
      ['007', 7],
      ['00000000000000001', 1],
      ['0100', 100],
    ])('allows leading zeros in limit, as in petId: %p is %p', (limit, value) => {
      expect(query({ limit })).toEqual({ ok: true, value: { limit: value } });
    });

    it('accepts an empty query', () => {
      expect(query({})).toEqual({ ok: true, value: {} });
    });

    it.each(['0', '101', 'abc', '1.5', '', '-1', '+5', ' 5', '1e1', '00100000', ['5', '6']])('refuses limit %p', (limit) => {
      expect(query({ limit })).toEqual({ ok: false, errors: [{ field: 'limit', message: 'limit must be an integer from 1 to 100' }] });
    });

    it.each(['lost', '', 'AVAILABLE', ['sold']])('refuses status %p', (status) => {
      expect(query({ status })).toEqual({ ok: false, errors: [{ field: 'status', message: 'status must be one of: available, pending, sold' }] });
    });
  });
});
