import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ListPetsQuery, NewPet, Pet, listLimitSchema } from '@petstore/contracts';
import type { FastifyReply } from 'fastify';
import { ApiErrorResponses, schemaRef } from '../docs/openapi.decorators';
import { DeprecationConfig } from '../http/deprecation';
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
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Returns a paginated list of animals, a bare JSON array in ascending `id` order. When `limit` is omitted, at most 20 animals are returned; when `status` is given, only animals with that status are returned.',
  })
  @ApiQuery({ name: 'limit', required: false, schema: listLimitSchema, description: 'Maximum number of animals returned.' })
  @ApiQuery({ name: 'status', required: false, schema: schemaRef('PetStatus'), description: 'Keep only animals with this status.' })
  @ApiResponse({ status: 200, description: 'A bare JSON array of animals.', content: { 'application/json': { schema: schemaRef('Pets') } } })
  @ApiErrorResponses(400)
  list(@Query(ListPetsQueryPipe) query: ListPetsQuery): Promise<Pet[]> {
    return this.pets.list(query);
  }

  @Post()
  @HttpCode(201)
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
    headers: { Location: { description: 'The path of the new animal.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: schemaRef('Pet') } },
  })
  @ApiErrorResponses(400, 413, 415)
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
    description:
      'Returns one animal. **Deprecated:** this endpoint is to be removed on 5 December 2030. The replacement is `GET /pets` with the `status` filter.',
    deprecated: true,
  })
  @ApiParam({ name: 'petId', description: 'Identifier of the animal: a positive int64.', schema: { type: 'integer', format: 'int64', minimum: 1 } })
  @ApiResponse({ status: 200, description: 'The animal.', content: { 'application/json': { schema: schemaRef('Pet') } } })
  @ApiErrorResponses(400, 404)
  get(@Param('petId', PetIdPipe) petId: string): Promise<Pet> {
    return this.pets.get(petId);
  }
}
