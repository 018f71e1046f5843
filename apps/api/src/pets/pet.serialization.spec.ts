import { PET_FIELDS, PetStatus } from '@petstore/contracts';
import Fastify from 'fastify';
import { PET_RESPONSE, serializerSchema } from './pet.serialization';

describe('the Pet response schema, derived from the contract', () => {
  it('is the fast-json-stringify form of openApiSchemas.Pet: every field of the class, with its JSON type', () => {
    expect(PET_RESPONSE.response).toEqual({
      200: {
        type: 'object',
        required: ['id', 'name', 'categoryId', 'status'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string' } },
      },
    });
    expect(Object.keys((PET_RESPONSE.response as { 200: { properties: object } })[200].properties)).toEqual(PET_FIELDS);
  });

  it('writes a Pet exactly as JSON.stringify does (the compiled serializer drops a property it does not know)', async () => {
    const app = Fastify();
    const pet = { id: 9007199254740991, name: 'Rex "the" \u2028dog 🐶', categoryId: 3, status: PetStatus.Sold };
    app.get('/pet', { schema: PET_RESPONSE }, async () => pet);
    const response = await app.inject({ method: 'GET', url: '/pet' });
    expect(response.body).toBe(JSON.stringify(pet));
    await app.close();
  });

  it('follows $ref and allOf to the referenced component, and refuses a property it cannot type', () => {
    expect(serializerSchema({ required: [], properties: { status: { allOf: [{ $ref: '#/components/schemas/PetStatus' }] } } }).properties).toEqual({
      status: { type: 'string' },
    });
    expect(() => serializerSchema({ required: [], properties: { odd: {} } })).toThrow(/no serializer type/);
  });
});
