import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@petstore/http-errors';
import { RequireScopes } from '../auth/auth.decorator';
import { ApiErrorResponses } from '../docs/openapi.decorators';

/** Declared so that the document and the scopes name it; its behaviour is not specified yet. */
@ApiTags('store')
@ApiBearerAuth('apiKey')
@Controller('store/orders')
export class OrdersController {
  @Get()
  @RequireScopes('orders:read')
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'List orders (experimental)',
    description: 'Exists but is not specified yet; it answers 501 `not_implemented`.',
  })
  @ApiExtension('x-stability', 'experimental')
  @ApiErrorResponses(501)
  list(): never {
    throw new DomainError('not_implemented', 'GET /v1/store/orders is not implemented yet: its behaviour is not specified');
  }
}
