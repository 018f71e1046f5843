import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ListPetsQuery, NewPet, Pet, PetIdParam, schemaOf } from '@petstore/contracts';
import type { FastifyReply } from 'fastify';
import { RequireScopes } from '../auth/scopes.decorator';
import { DeprecationConfig } from '../http/deprecation';
import { JsonBody } from '../http/json-body';
import { Location } from '../http/location.decorator';
import { Idempotent, IdempotencyClaim, IdempotencyClaimOf } from '../idempotency/idempotent.decorator';
import { logQueryValues } from '../logging/loggable-url';
import { CreatePetOperation, GetPetOperation, ListPetsOperation } from './pets.openapi';
import { PetsService } from './pets.service';

// The listing's parameters are the contract's own, validated: their values may be logged.
logQueryValues(Object.keys(schemaOf(ListPetsQuery).properties));

// Fastify writes the answers with a serializer compiled from the Pet schema: about twice as fast as JSON.stringify.
const PET_JSON = schemaOf(Pet, true);

const GET_PET_DEPRECATION: DeprecationConfig = {
  deprecation: {
    since: new Date('2026-01-01T00:00:00Z'),
    sunset: new Date('2030-12-05T00:00:00Z'),
    successor: '/v1/pets',
    operation: 'getPet',
  },
};

/** HTTP to the service and back; the global ValidationPipe has checked every parameter against the contract. */
@ApiTags('pets')
@ApiBearerAuth('apiKey')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @RouteSchema({ response: { 200: { type: 'array', items: PET_JSON } } })
  @RequireScopes('pets:read')
  @ListPetsOperation()
  async list(@Query() query: ListPetsQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet[]> {
    const page = await this.pets.list(query);
    if (page.next !== undefined) reply.header('link', `<${nextPageUrl(query, page.next)}>; rel="next"`);
    return page.pets;
  }

  @Post()
  @HttpCode(201)
  @RouteSchema({ response: { 201: PET_JSON } })
  @RequireScopes('pets:write')
  @CreatePetOperation()
  @Idempotent()
  @Location((pet: Pet) => `/v1/pets/${pet.id}`)
  create(@JsonBody() body: NewPet, @IdempotencyClaimOf() claim: IdempotencyClaim | undefined): Promise<Pet> {
    return this.pets.create(body, claim);
  }

  @Get(':petId')
  @RouteConfig(GET_PET_DEPRECATION)
  @RouteSchema({ response: { 200: PET_JSON } })
  @RequireScopes('pets:read')
  @GetPetOperation()
  get(@Param() { petId }: PetIdParam): Promise<Pet> {
    return this.pets.get(petId);
  }
}

/** The next page keeps the caller's own `limit` and `status`; the cursor is base64url, safe in a query. */
function nextPageUrl(query: ListPetsQuery, cursor: string): string {
  const params = [
    ...(query.limit !== undefined ? [`limit=${query.limit}`] : []),
    ...(query.status !== undefined ? [`status=${query.status}`] : []),
    `cursor=${cursor}`,
  ];
  return `/v1/pets?${params.join('&')}`;
}
