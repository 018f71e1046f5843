import { fieldsOf, requiredFieldsOf } from './fields';
import { PET_NAME_PATTERN, openApiSchemas } from './openapi';
import { petNameProblem } from './rules';
import { ListPetsQuery, NEW_PET_FIELDS, NewPet, PET_FIELDS, Pet } from './pet.dto';

/** The OpenAPI schemas are written by hand (descriptions, examples): these checks fail when they drift from the classes. */
describe('openApiSchemas against the contract classes', () => {
  it.each([
    ['Pet', Pet, openApiSchemas.Pet],
    ['NewPet', NewPet, openApiSchemas.NewPet],
  ] as const)('%s has exactly the fields of its class, and requires the ones the class requires', (_name, cls, schema) => {
    expect(Object.keys(schema.properties)).toEqual(fieldsOf(cls as new () => object));
    expect([...schema.required].sort()).toEqual([...requiredFieldsOf(cls as new () => object)].sort());
  });
});

describe('field lists read from the classes', () => {
  it('are the declared properties in declaration order (the order validation errors are reported in)', () => {
    expect(PET_FIELDS).toEqual(['id', 'name', 'categoryId', 'status']);
    expect(NEW_PET_FIELDS).toEqual(['name', 'categoryId', 'status']);
    expect(fieldsOf(ListPetsQuery)).toEqual(['limit', 'status', 'cursor']);
  });

  it('treat a field with a conditional rule (@ValidateIf) as optional', () => {
    expect(requiredFieldsOf(NewPet)).toEqual(['name', 'categoryId']);
    expect(requiredFieldsOf(Pet)).toEqual(PET_FIELDS);
    expect(requiredFieldsOf(ListPetsQuery)).toEqual([]);
  });
});

describe('PET_NAME_PATTERN (the schema of `name`)', () => {
  const pattern = new RegExp(PET_NAME_PATTERN, 'u');
  it.each(['Rex', ' Rex ', 'Ré x', '犬', 'a\u00a0b', '🐕'])('accepts %j, as the service does', (name) => {
    expect([pattern.test(name), petNameProblem(name)]).toEqual([true, undefined]);
  });
  it.each(['', '   ', '\u00a0', '\u3000', 'a\u0000', 'tab\there', 'del\u007f', '\n'])('refuses %j, as the service does', (name) => {
    expect(pattern.test(name)).toBe(false);
    expect(petNameProblem(name)).toBeDefined();
  });
});
