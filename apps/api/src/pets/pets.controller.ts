import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CURSOR_MAX_LENGTH, ListPetsQuery, NewPet, Pet, listLimitSchema } from '@petstore/contracts';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrorResponses, schemaRef } from '../docs/openapi.decorators';
import { DeprecationConfig } from '../http/deprecation';
import { IdempotentRequests } from '../idempotency/idempotent-requests';
import { ListPetsQueryPipe, NewPetBodyPipe, PetIdPipe } from '../http/validation.pipes';
import { CREATED_PET_RESPONSE, PET_RESPONSE, PETS_RESPONSE } from './pet.serialization';
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
  constructor(
    private readonly pets: PetsService,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Get()
  @RouteSchema(PETS_RESPONSE)
  @RequireScopes('pets:read')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Returns a paginated list of animals, a bare JSON array in ascending `id` order. When `limit` is omitted, at most 20 animals are returned; when `status` is given, only animals with that status are returned.',
  })
  @ApiQuery({ name: 'limit', required: false, schema: listLimitSchema, description: 'Maximum number of animals returned.' })
  @ApiQuery({ name: 'status', required: false, schema: schemaRef('PetStatus'), description: 'Keep only animals with this status.' })
  @ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string', pattern: `^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$` },
    description:
      'Opaque position in the listing, taken from the `rel="next"` Link of the previous page; used with the same `status` ' +
      'as that page. Any other value is a 400 `validation_failed` naming `cursor`.',
  })
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
    content: { 'application/json': { schema: schemaRef('Pets') } },
  })
  @ApiErrorResponses(400)
  async list(@Query(ListPetsQueryPipe) query: ListPetsQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet[]> {
    const page = await this.pets.list(query);
    if (page.next !== undefined) reply.header('link', `<${nextPageUrl(query, page.next)}>; rel="next"`);
    return page.pets;
  }

  @Post()
  @HttpCode(201)
  @RouteSchema(CREATED_PET_RESPONSE)
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
    headers: { Location: { description: 'The path of the new animal.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: schemaRef('Pet') } },
  })
  @ApiErrorResponses(400, 409, 413, 415, 422)
  create(@Body(NewPetBodyPipe) body: NewPet, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet> {
    return this.idempotent.run(request, reply, async () => {
      const pet = await this.pets.create(body);
      reply.header('location', `/v1/pets/${pet.id}`);
      return pet;
    });
  }

  @Get(':petId')
  @RouteConfig(GET_PET_DEPRECATION)
  @RouteSchema(PET_RESPONSE)
  @RequireScopes('pets:read')
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

/** The next page keeps the caller's own `limit` and `status`; the cursor is base64url, safe in a query. */
function nextPageUrl(query: ListPetsQuery, cursor: string): string {
  const params = [
    ...(query.limit !== undefined ? [`limit=${query.limit}`] : []),
    ...(query.status !== undefined ? [`status=${query.status}`] : []),
    `cursor=${cursor}`,
  ];
  return `/v1/pets?${params.join('&')}`;
}
