import { openApiSchemas } from '@petstore/contracts';
import type { FastifySchema } from 'fastify';

/*
 * Response schemas for Fastify's compiled serializer (fast-json-stringify), which writes a Pet several
 * times faster than JSON.stringify. Only the success statuses: errors keep their own path. Derived from
 * the contract's OpenAPI schema once, when this module loads; Fastify compiles them once per route at
 * start. Only `type` is kept per property: the serializer neither validates nor needs the rest.
 */
type OpenApiProperty = { type?: string; $ref?: string; allOf?: OpenApiProperty[] };
const SCHEMAS = openApiSchemas as Record<string, OpenApiProperty>;

/** A property's JSON type, following `$ref` and `allOf` into the contract's components. */
function typeOf(property: OpenApiProperty): string {
  if (property.type) return property.type;
  if (property.$ref) return typeOf(SCHEMAS[property.$ref.replace('#/components/schemas/', '')]);
  if (property.allOf?.length === 1) return typeOf(property.allOf[0]);
  throw new Error(`no serializer type for ${JSON.stringify(property)}`);
}

export function serializerSchema(schema: { required: readonly string[]; properties: Record<string, OpenApiProperty> }) {
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, { type: typeOf(property) }]));
  return { type: 'object', required: [...schema.required], properties };
}

const pet = serializerSchema(openApiSchemas.Pet);

export const PETS_RESPONSE: FastifySchema = { response: { 200: { type: 'array', items: pet } } };
export const PET_RESPONSE: FastifySchema = { response: { 200: pet } };
export const CREATED_PET_RESPONSE: FastifySchema = { response: { 201: pet } };
