import 'reflect-metadata';
import { ListPetsQuery, NewPet } from '@petstore/contracts';
import { ValidationFailedError } from './domain-error';
import { ContractValidationPipe } from './validation.pipe';

describe('ContractValidationPipe', () => {
  const pipe = new ContractValidationPipe();
  const body = (value: unknown) => pipe.transform(value, { type: 'body', metatype: NewPet });
  const problems = (value: unknown) =>
    body(value).then(
      () => undefined,
      (error: ValidationFailedError) => error.details,
    );

  it('gives the validated instance', async () => {
    await expect(body({ name: 'Rex', categoryId: 3 })).resolves.toBeInstanceOf(NewPet);
  });

  it('names the declared fields first, then the unknown properties, proto keys included', async () => {
    expect(await problems(JSON.parse('{"extra":1,"name":"","__proto__":{},"constructor":1}'))).toEqual([
      { field: 'name', message: 'name must be 1 to 255 characters long' },
      { field: 'categoryId', message: 'categoryId is required' },
      { field: 'extra', message: 'property extra is not allowed' },
      { field: '__proto__', message: 'property __proto__ is not allowed' },
      { field: 'constructor', message: 'property constructor is not allowed' },
    ]);
  });

  it('requires a body that is a JSON object', async () => {
    expect(await problems(undefined)).toEqual([{ field: 'body', message: 'The request body is required' }]);
    for (const value of [[], 'Rex', 5, null]) expect(await problems(value)).toEqual([{ field: 'body', message: 'body must be a JSON object' }]);
  });

  it('lists at most 20 problems in under 4 KiB, and cuts the long names it echoes', async () => {
    const many = await problems(Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`p${i}`, 1])));
    expect(many).toHaveLength(20);
    const long = await problems({ [`${'x'.repeat(5000)}`]: 1, name: 'Rex', categoryId: 1 });
    expect(long).toEqual([{ field: `${'x'.repeat(64)}…`, message: `property ${'x'.repeat(64)}… is not allowed` }]);
    const error = (await body(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${i}${'é'.repeat(60)}`, 1]))).catch(
      (e: unknown) => e,
    )) as ValidationFailedError;
    expect(Buffer.byteLength(JSON.stringify({ code: error.code, message: error.message, status: 400, details: error.details }))).toBeLessThan(4096);
  });

  it('does not walk nested values (30,000 nested arrays)', async () => {
    expect(await problems(JSON.parse(`{"name":${'['.repeat(30_000)}${']'.repeat(30_000)},"categoryId":1}`))).toEqual([
      { field: 'name', message: 'name must be a string' },
    ]);
  });

  it('drops unknown query parameters and converts plain digits', async () => {
    const query = pipe.transform({ limit: '007', access_token: 'x' }, { type: 'query', metatype: ListPetsQuery });
    await expect(query).resolves.toEqual(Object.assign(new ListPetsQuery(), { limit: 7 }));
  });
});
