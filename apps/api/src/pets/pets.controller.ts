import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ListPetsQuery, NewPet, Pet, PET_ID_MAX, PET_STATUSES, listLimitSchema } from '@petstore/contracts';
import type { FastifyReply } from 'fastify';
import { ApiErrorResponses, schemaRef } from '../docs/openapi.decorators';
import { DeprecationConfig } from '../http/deprecation';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { ListPetsQueryPipe, NewPetBodyPipe, PetIdPipe } from '../http/validation.pipes';
import { PetsService } from './pets.service';

const GET_PET_DEPRECATION: DeprecationConfig = {
  deprecation: {
    since: new Date('2026-01-01T00:00:00Z'),
    sunset: new Date('2030-12-05T00:00:00Z'),
    successor: '/v1/pets',
  },
};

@ApiTags('pets')
@ApiBearerAuth('apiKey')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({ operationId: 'listPets', summary: 'List animals', description: 'Returns a page of animals in ascending `id` order, optionally only those with one status.' })
  @ApiQuery({ name: 'limit', required: false, schema: listLimitSchema, description: 'Maximum number of animals returned.' })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...PET_STATUSES] }, description: 'Keep only animals with this status.' })
  @ApiResponse({ status: 200, description: 'A bare JSON array of animals.', content: { 'application/json': { schema: schemaRef('Pets') } } })
  @ApiErrorResponses(400, 401, 503)
  list(@Query(ListPetsQueryPipe) query: ListPetsQuery): Promise<Pet[]> {
    return this.pets.list(query);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header): within 24 hours the same key with the same body replays the first answer; another body is 422, a request still running with the key is 409.',
    schema: { type: 'string', maxLength: 257 },
  })
  @ApiOperation({ operationId: 'createPet', summary: 'Add an animal', description: 'Adds an animal; the service assigns its `id`.' })
  @ApiBody({ required: true, schema: schemaRef('NewPet') })
  @ApiResponse({
    status: 201,
    description: 'Animal added; the body includes the assigned `id`.',
    headers: { Location: { description: 'The path of the new animal.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: schemaRef('Pet') } },
  })
  @ApiErrorResponses(400, 401, 409, 413, 415, 422, 503)
  async create(@Body(NewPetBodyPipe) body: NewPet, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet> {
    const pet = await this.pets.create(body);
    reply.header('location', `/v1/pets/${pet.id}`);
    return pet;
  }

  @Get(':petId')
  @RouteConfig(GET_PET_DEPRECATION)
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get one animal (deprecated)',
    description: 'Returns one animal. Deprecated: to be removed on 5 December 2030; use `GET /pets` with the `status` filter instead.',
    deprecated: true,
  })
  @ApiParam({ name: 'petId', description: 'Identifier of the animal.', schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number(PET_ID_MAX) } })
  @ApiResponse({ status: 200, description: 'The animal.', content: { 'application/json': { schema: schemaRef('Pet') } } })
  @ApiErrorResponses(400, 401, 404, 503)
  get(@Param('petId', PetIdPipe) petId: string): Promise<Pet> {
    return this.pets.get(petId);
  }
}
