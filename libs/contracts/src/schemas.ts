import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { ApiError } from './api-error';
import { CATEGORY_ID_MAX, NAME_MAX_LENGTH, PET_STATUSES } from './limits';
import { NewPet, Pet } from './pet.dto';
import { PET_NAME_PATTERN } from './rules';

export type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The rules of rules.ts in JSON Schema; class-validator's own rules have the library's converters. */
const converters: NonNullable<Parameters<typeof targetConstructorToSchema>[1]>['additionalConverters'] = {
  isPetName: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: PET_NAME_PATTERN },
  isCategoryId: { type: 'integer', format: 'int64', minimum: 1, maximum: CATEGORY_ID_MAX },
  isPetId: { type: 'integer', minimum: 1 },
  givenOnce: {}, // a query's schema is one value already
};
const petStatus = () => ({ type: 'string' as const, enum: [...PET_STATUSES] });

/** A contract class's OpenAPI schema; `standalone` writes PetStatus in place instead of referring to the component. */
export function schemaOf(cls: new () => object, standalone = false): Schema & { properties: Record<string, Schema>; required?: string[] } {
  // allOf: in OpenAPI 3.0 a $ref's siblings (description, default) are ignored.
  const isPetStatus = standalone ? petStatus() : { allOf: [ref('PetStatus')] };
  return targetConstructorToSchema(cls, { additionalConverters: { ...converters, isPetStatus } }) as never;
}

export function contractSchemas(): Record<string, Schema> {
  return {
    PetStatus: { ...petStatus(), description: 'Availability of the animal.' },
    NewPet: schemaOf(NewPet),
    Pet: schemaOf(Pet),
    Pets: { type: 'array', description: 'A page of animals in ascending `id` order.', items: ref('Pet') },
    Error: schemaOf(ApiError),
  };
}

/** Each property of a class as an OpenAPI Parameter Object, its description lifted out of the schema. */
export function parametersOf(cls: new () => object, location: 'query' | 'path') {
  const schema = schemaOf(cls);
  return Object.entries(schema.properties).map(([name, { description, ...property }]) => ({
    name,
    in: location,
    required: schema.required?.includes(name) ?? false,
    description: description as string | undefined,
    // Without its description, a lone allOf can be a bare $ref.
    schema: Array.isArray(property.allOf) && Object.keys(property).length === 1 ? (property.allOf[0] as Schema) : property,
  }));
}
