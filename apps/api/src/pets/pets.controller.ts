import { Controller, Get, applyDecorators, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CURSOR_MESSAGE,
  LIMIT_MESSAGE,
  ListPetsQuery,
  NewPet,
  Pet,
  PetIdParam,
  STATUS_MESSAGE,
  categoryIdProblem,
  parametersOf,
  petIdProblem,
  petNameProblem,
  schemaOf,
} from '@petstore/contracts';
import type { FastifyReply } from 'fastify';
import { RequireScopes } from '../auth/auth.decorator';
import { ApiErrorResponses, schemaRef } from '../docs/openapi.decorators';
import { JsonBody } from '../http/json-body';
import type { IdempotencyClaim } from '../idempotency/idempotency-key.entity';
import { Idempotent, IdempotencyClaimOf } from '../idempotency/idempotent.decorator';
import { logQueryValues } from '../logging/loggable-url';
import { ParsePetIdPipe } from './pet-id.pipe';
import { PetsService } from './pets.service';

// The listing's parameters are the contract's own, validated: their values may be logged.
logQueryValues(Object.keys(schemaOf(ListPetsQuery).properties));

// Fastify writes the answers with a serializer compiled from the Pet schema: about twice as fast as JSON.stringify.
const PET_JSON = schemaOf(Pet, true);
const json = (schema: string) => ({ 'application/json': { schema: schemaRef(schema) } });

@ApiTags('pets')
@ApiBearerAuth('apiKey')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @RouteSchema({ response: { 200: { type: 'array', items: PET_JSON } } })
  @RequireScopes('pets:read')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Returns a paginated list of animals, a bare JSON array in ascending `id` order. When `limit` is omitted, at most 20 animals are returned; when `status` is given, only animals with that status are returned.',
  })
  @applyDecorators(...parametersOf(ListPetsQuery, 'query').map((parameter) => ApiQuery(parameter)))
  @ApiResponse({
    status: 200,
    description: 'A bare JSON array of animals.',
    headers: {
      Link: {
        description:
          'Present only when more animals follow: `</v1/pets?limit=…&status=…&cursor=…>; rel="next"` (RFC 8288), ' +
          'keeping the `limit` and `status` of the request. Following the links visits every animal once, in order.',
        schema: { type: 'string' },
      },
    },
    content: json('Pets'),
  })
  @ApiErrorResponses({
    validation_failed: [
      { field: 'limit', message: LIMIT_MESSAGE },
      { field: 'status', message: STATUS_MESSAGE },
      { field: 'cursor', message: CURSOR_MESSAGE },
    ],
  })
  async list(@Query() query: ListPetsQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet[]> {
    const { pets, next } = await this.pets.list(query);
    // The next page keeps the caller's own `limit` and `status`; the cursor is base64url, safe in a query.
    const params = Object.entries({ limit: query.limit, status: query.status, cursor: next }).filter(([, value]) => value !== undefined);
    if (next !== undefined) reply.header('link', `</v1/pets?${params.map(([key, value]) => `${key}=${value}`).join('&')}>; rel="next"`);
    return pets;
  }

  @Post()
  @HttpCode(201)
  @RouteSchema({ response: { 201: PET_JSON } })
  @RequireScopes('pets:write')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header): within 24 hours the same key with the same body replays the first answer; another body is 422, a request still running with the key is 409.',
    schema: { type: 'string', maxLength: 257 },
  })
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Add an animal',
    description:
      'Adds an animal. `name` and `categoryId` are required; `status` is optional (`available` when omitted). The service assigns `id`; the answer includes it.',
  })
  @ApiBody({ required: true, schema: schemaRef('NewPet') })
  @ApiResponse({
    status: 201,
    description: 'Animal added; the body includes the assigned `id`.',
    headers: {
      Location: { description: 'The path of the new animal.', required: true, schema: { type: 'string', example: '/v1/pets/1' } },
      'Idempotent-Replayed': {
        description: '`true` when this is the first answer replayed for a repeated `Idempotency-Key`.',
        required: false,
        schema: { type: 'string', enum: ['true'] },
      },
    },
    content: json('Pet'),
  })
  @ApiErrorResponses(409, 413, 415, 422, {
    validation_failed: [
      { field: 'name', message: `name ${petNameProblem(' ')}` },
      { field: 'categoryId', message: `categoryId ${categoryIdProblem('3')}` },
      { field: 'id', message: 'property id is not allowed' },
      { field: 'body', message: 'The request body is required' },
    ],
    malformed_json: true,
  })
  @Idempotent()
  async create(
    @JsonBody() body: NewPet,
    @IdempotencyClaimOf() claim: IdempotencyClaim | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet> {
    const pet = await this.pets.create(body, claim);
    reply.header('location', `/v1/pets/${pet.id}`);
    return pet;
  }

  @Get(':petId')
  @RouteConfig({ deprecation: { since: new Date('2026-01-01'), sunset: new Date('2030-12-05'), successor: '/v1/pets', operation: 'getPet' } })
  @RouteSchema({ response: { 200: PET_JSON } })
  @RequireScopes('pets:read')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get one animal (deprecated)',
    description:
      'Returns one animal. **Deprecated:** this endpoint is to be removed on 5 December 2030. The replacement is `GET /pets` with the `status` filter.',
    deprecated: true,
  })
  @applyDecorators(...parametersOf(PetIdParam, 'path').map((parameter) => ApiParam(parameter)))
  @ApiResponse({ status: 200, description: 'The animal.', content: json('Pet') })
  @ApiErrorResponses({ validation_failed: [{ field: 'petId', message: `petId ${petIdProblem('0')}` }], not_found: true })
  get(@Param('petId', ParsePetIdPipe) petId: string): Promise<Pet> {
    return this.pets.get(petId);
  }
}
