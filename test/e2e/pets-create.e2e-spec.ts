import { countPets, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { JSON_CONTENT_TYPE, storedPets, truncatePets } from '../support/expectations';
import { petCreation } from '../support/pet-creation';

const NAME_RULE = 'name must be 1 to 255 characters long';
const CATEGORY_RULE = 'categoryId must be an integer from 1 to 9007199254740991';
const STATUS_RULE = 'status must be one of: available, pending, sold';

/** createPet's answers and its fields' rules. The body's own rules (JSON, object, size, media type) are pets-create-body.e2e-spec.ts. */
describe('createPet: POST /v1/pets (e2e)', () => {
  const api = useTestApp();
  beforeEach(async () => {
    await truncatePets(api);
  });

  const { post, expectRefused } = petCreation(api);

  describe('success', () => {
    it('answers 201 with the Pet, its id as a JSON number, and Location: /v1/pets/{id}', async () => {
      const response = await post({ name: 'Rex', categoryId: 3 });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
      expect(response.headers.get('location')).toBe('/v1/pets/1');
      expect(response.text).toBe('{"id":1,"name":"Rex","categoryId":3,"status":"available"}');
      expect(await storedPets(api)).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'available' }]);
    });

    it.each(['available', 'pending', 'sold'])('stores the given status %s', async (status) => {
      const response = await post({ name: 'Rex', categoryId: 3, status });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status });
      expect(await storedPets(api)).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status }]);
    });

    it('assigns increasing ids, and names are not unique', async () => {
      const first = await post({ name: 'Rex', categoryId: 1 });
      const second = await post({ name: 'Rex', categoryId: 1 });
      expect([first.body.id, second.body.id]).toEqual([1, 2]);
      expect(second.headers.get('location')).toBe('/v1/pets/2');
    });

    it.each([
      ['one character', 'R'],
      ['255 characters', 'x'.repeat(255)],
      ['255 astral characters (510 UTF-16 units)', '🐶'.repeat(255)],
      ['surrounding spaces, kept as sent', '  Rex  '],
      ['combining marks and right-to-left text', 'Ре́кс שלום'],
      ['a backslash and quotes', 'R\\"ex\''],
    ])('stores a name of %s exactly as sent', async (_case, name) => {
      const response = await post({ name, categoryId: 1 });
      expect(response.status).toBe(201);
      expect(response.body.name).toBe(name);
      expect((await storedPets(api))[0].name).toBe(name);
    });

    it.each([1, 9007199254740991])('accepts categoryId %d', async (categoryId) => {
      const response = await post({ name: 'Rex', categoryId });
      expect(response.status).toBe(201);
      expect(response.text).toBe(`{"id":1,"name":"Rex","categoryId":${categoryId},"status":"available"}`);
      expect((await storedPets(api))[0].categoryId).toBe(categoryId);
    });

    it.each(['3.0', '3e0', '0.3e1'])('reads categoryId written as %s as the integer 3 (JSON has one number type)', async (written) => {
      const response = await post(`{"name":"Rex","categoryId":${written}}`);
      expect(response.status).toBe(201);
      expect(response.text).toBe('{"id":1,"name":"Rex","categoryId":3,"status":"available"}');
    });

    it.each([['application/json; charset=utf-8'], ['Application/JSON'], ['application/json;charset="UTF-8"']])(
      'accepts the content type %s',
      async (contentType) => {
        const response = await post(JSON.stringify({ name: 'Rex', categoryId: 1 }), { 'content-type': contentType });
        expect(response.status).toBe(201);
      },
    );

    it('accepts a body of exactly 64 KiB', async () => {
      const json = JSON.stringify({ name: 'Rex', categoryId: 1 });
      const response = await post(json + ' '.repeat(64 * 1024 - json.length));
      expect(response.status).toBe(201);
    });

    it('ignores unknown query parameters', async () => {
      const response = await api.request('POST', '/v1/pets?foo=bar', { headers: AUTH, body: { name: 'Rex', categoryId: 1 } });
      expect(response.status).toBe(201);
    });
  });

  describe('name', () => {
    it('is required', () => expectRefused({ categoryId: 1 }, ['name', 'name is required']));
    it('must not be empty', () => expectRefused({ name: '', categoryId: 1 }, ['name', NAME_RULE]));
    it('must not exceed 255 characters', () => expectRefused({ name: 'x'.repeat(256), categoryId: 1 }, ['name', NAME_RULE]));
    it('must not exceed 255 astral characters', () => expectRefused({ name: '🐶'.repeat(256), categoryId: 1 }, ['name', NAME_RULE]));
    it.each([' ', '   ', '\u00a0\u3000', '\u0085', ' \u0085\u2028 '])('must not be blank (%j)', (name) =>
      expectRefused({ name, categoryId: 1 }, ['name', 'name must not be blank']),
    );
    it.each(['a\u0000b', 'a\nb', 'a\tb', 'a\u001fb', 'a\u007fb', 'Rex\r'])('must not hold control characters (%j)', (name) =>
      expectRefused({ name, categoryId: 1 }, ['name', 'name must not contain control characters (U+0000-U+001F, U+007F)']),
    );
    it.each(['\\ud800', 'a\\udc00b', '\\udc00\\ud800'])('must not hold lone surrogates (%s)', (escaped) =>
      expectRefused(`{"name":"${escaped}","categoryId":1}`, ['name', 'name must be valid Unicode text']),
    );
    it.each([5, null, true, ['Rex'], { first: 'Rex' }])('must be a string, not %j', (name) =>
      expectRefused({ name, categoryId: 1 }, ['name', 'name must be a string']),
    );
  });

  describe('categoryId', () => {
    it('is required', () => expectRefused({ name: 'Rex' }, ['categoryId', 'categoryId is required']));
    // eslint-disable-next-line no-loss-of-precision -- 1e400 is Infinity on purpose: JSON cannot carry it
    it.each([0, -1, 9007199254740992, 1.5, '5', null, true, [5], 1e400])('refuses %j', (categoryId) =>
      expectRefused({ name: 'Rex', categoryId }, ['categoryId', CATEGORY_RULE]),
    );
    it('refuses 9007199254740993 written in the JSON text', () =>
      expectRefused('{"name":"Rex","categoryId":9007199254740993}', ['categoryId', CATEGORY_RULE]));
    it('refuses 1e400 written in the JSON text', () => expectRefused('{"name":"Rex","categoryId":1e400}', ['categoryId', CATEGORY_RULE]));
  });

  describe('status', () => {
    it.each([null, 'lost', 'AVAILABLE', '', 1, ['sold']])('refuses %j', (status) =>
      expectRefused({ name: 'Rex', categoryId: 1, status }, ['status', STATUS_RULE]),
    );
  });

  describe('unknown properties', () => {
    it('refuses id, naming it', () => expectRefused({ id: 7, name: 'Rex', categoryId: 1 }, ['id', 'property id is not allowed']));
    it('refuses any other property, naming it', () =>
      expectRefused({ name: 'Rex', categoryId: 1, colour: 'brown' }, ['colour', 'property colour is not allowed']));
    it('refuses a key-shaped property without echoing the key', () =>
      expectRefused({ name: 'Rex', categoryId: 1, pet_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_AbCdEf: 1 }, ['pet_…', 'property pet_… is not allowed']));
    it('refuses __proto__ and constructor, naming them', () =>
      expectRefused(
        '{"name":"Rex","categoryId":1,"__proto__":{"status":"sold"},"constructor":1}',
        ['__proto__', 'property __proto__ is not allowed'],
        ['constructor', 'property constructor is not allowed'],
      ));
    it("refuses names of Object.prototype's own (valueOf, toString), naming them", () =>
      expectRefused(
        '{"name":"Rex","categoryId":1,"valueOf":[],"toString":1}',
        ['valueOf', 'property valueOf is not allowed'],
        ['toString', 'property toString is not allowed'],
      ));
    it('lists at most 20 problems in under 4 KiB, however many the body holds (9,000 unknown properties in 64 KiB)', async () => {
      // Names of one to three printable characters (not `"` or `\\`) fit 9,000 properties in 64 KiB.
      const alphabet = [...Array(94)].map((_, i) => String.fromCharCode(33 + i)).filter((c) => c !== '"' && c !== '\\');
      const name = (i: number): string =>
        i < alphabet.length ? alphabet[i] : name(Math.floor(i / alphabet.length) - 1) + alphabet[i % alphabet.length];
      const body = JSON.stringify(Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [name(i), 0])));
      expect(body.length).toBeLessThanOrEqual(64 * 1024);
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(Buffer.byteLength(response.text)).toBeLessThan(4096);
      expect(response.body.details).toHaveLength(20);
      expect(response.body.details[0]).toEqual({ field: 'name', message: 'name is required' });
      const [, , unknown] = response.body.details;
      expect(unknown.message).toBe(`property ${unknown.field} is not allowed`);
      expect(await countPets(api)).toBe(0);
    });
    it('keeps the answer under 4 KiB for long property names, cutting the names it echoes', async () => {
      const names = Array.from({ length: 20 }, (_, i) => `${i}${'\u0001'.repeat(500)}`);
      const response = await post(JSON.stringify(Object.fromEntries(names.map((name) => [name, 1]))));
      expect(response.status).toBe(400);
      expect(Buffer.byteLength(response.text)).toBeLessThan(4096);
      expect(response.body.details[2].field).toBe(`0${'\u0001'.repeat(63)}…`);
    });
    it('reports every problem at once, fields first', () =>
      expectRefused(
        { extra: 1, status: null, categoryId: '5', name: '' },
        ['name', NAME_RULE],
        ['categoryId', CATEGORY_RULE],
        ['status', STATUS_RULE],
        ['extra', 'property extra is not allowed'],
      ));
  });

  describe('nested values where a field wants a string or a number', () => {
    it('refuses an object with a constructor key as the categoryId', () =>
      expectRefused('{"name":"rex","categoryId":{"constructor":{"prototype":{}}}}', [
        'categoryId',
        'categoryId must be an integer from 1 to 9007199254740991',
      ]));
    it('refuses an object as the name', () => expectRefused('{"name":{"constructor":1},"categoryId":1}', ['name', 'name must be a string']));
    it('refuses a name nested 30,000 arrays deep', () =>
      expectRefused(`{"name":${'['.repeat(30_000)}${']'.repeat(30_000)},"categoryId":1}`, ['name', 'name must be a string']));
  });
});
