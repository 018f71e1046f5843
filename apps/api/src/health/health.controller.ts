import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@petstore/http-errors';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrorResponses } from '../docs/openapi.decorators';
import { Database } from '../database/database';
import { DrainState } from '../http/drain';
import { DatabasePing } from './database-ping';
import { Metrics } from '../observability/metrics';

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

export class DiskFullNotReadyError extends DomainError {
  constructor() {
    super('service_unavailable', "Not ready: the database's disk is full");
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
    private readonly database: DatabasePing,
    private readonly drain: DrainState,
    private readonly metrics: Metrics,
    private readonly db: Database,
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
  async ready(): Promise<{ status: 'ok' }> {
    if (this.drain.draining || this.db.diskShortage()) {
      this.metrics.readiness(false);
      throw this.drain.draining ? new ShuttingDownError() : new DiskFullNotReadyError();
    }
    const answers = await this.database.answers();
    this.metrics.readiness(answers);
    if (!answers) throw new DatabaseNotReadyError();
    return { status: 'ok' };
  }
}
