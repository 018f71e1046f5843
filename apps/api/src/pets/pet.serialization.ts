import type { FastifySchema } from 'fastify';

/*
 * Response schemas for Fastify's compiled serializer (fast-json-stringify), which writes a Pet several
 * times faster than JSON.stringify. Only the success statuses: errors keep their own path. The
 * contract's schemas stay the OpenAPI ones in @petstore/contracts; these describe the same fields.
 */
const pet = {
  type: 'object',
  required: ['id', 'name', 'categoryId', 'status'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
} as const;

export const PETS_RESPONSE: FastifySchema = { response: { 200: { type: 'array', items: pet } } };
export const PET_RESPONSE: FastifySchema = { response: { 200: pet } };
export const CREATED_PET_RESPONSE: FastifySchema = { response: { 201: pet } };
