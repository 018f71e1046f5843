import fc from 'fast-check';
import { countPets, STARTUP_TIMEOUT_MS, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { storedPets, truncatePets } from '../support/expectations';

const STATUSES = ['available', 'pending', 'sold'] as const;
const MAX_CATEGORY = 9007199254740991;
/** Hundreds of requests each; the embedded PostgreSQL on a busy machine needs more than the default. */
const PROPERTY_TIMEOUT_MS = 180_000;

/** One Unicode code point that may appear in a name: anything but C0 controls, DEL and surrogates. */
const nameCharacter = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
    { arbitrary: fc.integer({ min: 0x80, max: 0xd7ff }), weight: 2 },
    { arbitrary: fc.integer({ min: 0xe000, max: 0x10ffff }), weight: 2 },
  )
  .map((codePoint) => String.fromCodePoint(codePoint));
/** Blank: only Unicode White_Space, which is JavaScript's \s (and trim) and U+0085 (NEXT LINE). */
const BLANK = /^[\s\u0085]*$/;
const validName = fc.string({ unit: nameCharacter, minLength: 1, maxLength: 255 }).filter((name) => !BLANK.test(name));
const validCategoryId = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: MAX_CATEGORY }), fc.constant(MAX_CATEGORY));
const validBody = fc.record(
  { name: validName, categoryId: validCategoryId, status: fc.constantFrom(...STATUSES) },
  { requiredKeys: ['name', 'categoryId'] },
);

/** A valid body with exactly one rule broken; `field` is the property the answer must name. */
const invalidBody: fc.Arbitrary<{ body: Record<string, unknown>; field: string }> = fc.oneof(
  fc
    .tuple(
      validBody,
      fc.oneof(
        fc.constant(''),
        fc.stringMatching(/^[ \u0085\u00a0\u2003\u3000]{1,10}$/),
        fc
          .tuple(
            validName,
            fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
            fc.nat(10),
          )
          .map(([n, c, i]) => n.slice(0, i) + c + n.slice(i)),
        fc
          .tuple(
            validName,
            fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
          )
          .map(([n, s]) => `${n}${s}x`),
        fc.string({ unit: nameCharacter, minLength: 256, maxLength: 300 }),
        fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 })),
      ),
    )
    .map(([body, name]) => ({ body: { ...body, name }, field: 'name' })),
  fc
    .tuple(
      validBody,
      fc.oneof(
        fc.integer({ max: 0 }),
        fc.double({ min: MAX_CATEGORY + 1, noNaN: true, noDefaultInfinity: true }),
        fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 1, max: 1000 }).map(String),
        fc.constant(null),
        fc.boolean(),
      ),
    )
    .map(([body, categoryId]) => ({ body: { ...body, categoryId }, field: 'categoryId' })),
  fc
    .tuple(
      validBody,
      fc.oneof(
        fc.string().filter((s) => !(STATUSES as readonly string[]).includes(s)),
        fc.constant(null),
        fc.integer(),
        fc.constantFrom('AVAILABLE', 'Sold', ' pending'),
      ),
    )
    .map(([body, status]) => ({ body: { ...body, status }, field: 'status' })),
  fc
    .tuple(
      validBody,
      fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !['name', 'categoryId', 'status'].includes(k)),
      fc.jsonValue(),
    )
    .map(([body, key, value]) => ({ body: { ...body, [key]: value }, field: key })),
  fc.tuple(validBody, fc.constantFrom('name', 'categoryId')).map(([body, key]) => {
    const { [key as 'name']: _removed, ...rest } = body;
    return { body: rest, field: key };
  }),
);

describe('createPet properties (e2e, generated bodies)', () => {
  const api = useTestApp();

  beforeAll(async () => {
    await truncatePets(api);
  }, STARTUP_TIMEOUT_MS);

  it(
    'stores every valid body and returns it byte-identical, name exactly as sent',
    async () => {
      await fc.assert(
        fc.asyncProperty(validBody, async (body) => {
          const created = await api.request('POST', '/v1/pets', { headers: AUTH, body });
          expect(created.status).toBe(201);
          const expected = { id: created.body.id, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' };
          expect(created.text).toBe(JSON.stringify(expected));
          expect(created.headers.get('location')).toBe(`/v1/pets/${expected.id}`);
          const fetched = await api.request('GET', `/v1/pets/${expected.id}`, { headers: AUTH });
          expect(fetched.text).toBe(created.text);
          const row = await api.sql.query('SELECT name, category_id, status FROM pets WHERE id = $1', [expected.id]);
          expect(row.rows).toEqual([{ name: body.name, category_id: String(body.categoryId), status: expected.status }]);
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses every body that breaks one rule with 400 naming the field, and stores nothing',
    async () => {
      const before = (await storedPets(api)).length;
      await fc.assert(
        fc.asyncProperty(invalidBody, async ({ body, field }) => {
          const response = await api.request('POST', '/v1/pets', { headers: AUTH, body });
          expect(response.status).toBe(400);
          expect(response.body.code).toBe('validation_failed');
          expect(response.body.status).toBe(400);
          expect(response.body.details).toEqual([{ field, message: expect.stringContaining(field) }]);
          expect(response.body.message).toBe(response.body.details[0].message);
        }),
        { numRuns: 200 },
      );
      expect(await countPets(api)).toBe(before);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
