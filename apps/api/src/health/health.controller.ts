import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DomainError } from '@petstore/http-errors';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrorResponses } from '../docs/openapi.decorators';
import { DATABASE_TIMEOUTS } from '../database/database.options';
import { DrainState } from '../http/drain';

export class ShuttingDownError extends DomainError {
  constructor() {
    super('service_unavailable', 'Not ready: shutting down');
  }
}

export class DatabaseNotReadyError extends DomainError {
  constructor() {
    super('service_unavailable', 'Not ready: the database does not answer');
  }
}

const HEALTH_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
};

/** Operational endpoints for orchestrators and load balancers: outside /v1, no API key. */
@ApiTags('operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly drain: DrainState,
  ) {}

  @Get('live')
  @ApiOperation({ operationId: 'live', summary: 'Liveness: the process answers' })
  @ApiResponse({ status: 200, description: 'The process is up.', content: { 'application/json': { schema: HEALTH_SCHEMA } } })
  @ApiPublicErrorResponses()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ operationId: 'ready', summary: 'Readiness: the database answers and the instance is not shutting down' })
  @ApiResponse({ status: 200, description: 'The service can serve requests.', content: { 'application/json': { schema: HEALTH_SCHEMA } } })
  @ApiPublicErrorResponses(503)
  async ready(): Promise<unknown> {
    if (this.drain.draining) throw new ShuttingDownError();
    try {
      return await this.health.check([() => this.database.pingCheck('database').withTimeout(DATABASE_TIMEOUTS.queryMs)]);
    } catch {
      throw new DatabaseNotReadyError();
    }
  }
}
