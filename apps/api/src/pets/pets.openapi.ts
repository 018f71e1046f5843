import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import {
  CURSOR_MESSAGE,
  LIMIT_MESSAGE,
  ListPetsQuery,
  PET_ID_MAX,
  PetIdParam,
  STATUS_MESSAGE,
  categoryIdProblem,
  parametersOf,
  petNameProblem,
} from '@petstore/contracts';
import { ApiErrorResponses, schemaRef } from '../docs/openapi.decorators';

/*
 * The OpenAPI description of each pets operation, one composed decorator each, so the controller reads like
 * the API. Parameters and bodies are the contract classes' schemas; what is written here is the prose.
 */

export function ListPetsOperation() {
  return applyDecorators(
    ApiOperation({
      operationId: 'listPets',
      summary: 'List animals',
      description:
        'Returns a paginated list of animals, a bare JSON array in ascending `id` order. When `limit` is omitted, at most 20 animals are returned; when `status` is given, only animals with that status are returned.',
    }),
    ...parametersOf(ListPetsQuery, 'query').map((parameter) => ApiQuery(parameter)),
    ApiResponse({
      status: 200,
      description: 'A bare JSON array of animals.',
      headers: {
        // Not required: the last page has none.
        Link: {
          description:
            'Present only when more animals follow: `</v1/pets?limit=…&status=…&cursor=…>; rel="next"` (RFC 8288), ' +
            'keeping the `limit` and `status` of the request. Following the links visits every animal once, in order.',
          schema: { type: 'string' },
        },
      },
      content: { 'application/json': { schema: schemaRef('Pets') } },
    }),
    ApiErrorResponses({
      validation_failed: [
        { field: 'limit', message: LIMIT_MESSAGE },
        { field: 'status', message: STATUS_MESSAGE },
        { field: 'cursor', message: CURSOR_MESSAGE },
      ],
    }),
  );
}

export function CreatePetOperation() {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header): within 24 hours the same key with the same body replays the first answer; another body is 422, a request still running with the key is 409.',
      schema: { type: 'string', maxLength: 257 },
    }),
    ApiOperation({
      operationId: 'createPet',
      summary: 'Add an animal',
      description:
        'Adds an animal. `name` and `categoryId` are required; `status` is optional (`available` when omitted). The service assigns `id`; the answer includes it.',
    }),
    ApiBody({ required: true, schema: schemaRef('NewPet') }),
    ApiResponse({
      status: 201,
      description: 'Animal added; the body includes the assigned `id`.',
      headers: { Location: { description: 'The path of the new animal.', required: true, schema: { type: 'string', example: '/v1/pets/1' } } },
      content: { 'application/json': { schema: schemaRef('Pet') } },
    }),
    ApiErrorResponses(409, 413, 415, 422, {
      validation_failed: [
        { field: 'name', message: `name ${petNameProblem(' ')}` },
        { field: 'categoryId', message: `categoryId ${categoryIdProblem('3')}` },
        { field: 'id', message: 'property id is not allowed' },
        { field: 'body', message: 'The request body is required' },
      ],
      malformed_json: true,
    }),
  );
}

export function GetPetOperation() {
  return applyDecorators(
    ApiOperation({
      operationId: 'getPet',
      summary: 'Get one animal (deprecated)',
      description:
        'Returns one animal. **Deprecated:** this endpoint is to be removed on 5 December 2030. The replacement is `GET /pets` with the `status` filter.',
      deprecated: true,
    }),
    ...parametersOf(PetIdParam, 'path').map((parameter) => ApiParam(parameter)),
    ApiResponse({ status: 200, description: 'The animal.', content: { 'application/json': { schema: schemaRef('Pet') } } }),
    ApiErrorResponses({
      validation_failed: [{ field: 'petId', message: `petId must be an integer from 1 to ${PET_ID_MAX}` }],
      not_found: true,
    }),
  );
}
