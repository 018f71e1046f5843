import { Controller, Get } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@petstore/http-errors';
import { Public } from '../auth/auth.decorator';
import { ApiPublicErrorResponses } from '../docs/openapi.decorators';
import { DATABASE_TIMEOUTS } from '../database/database.options';
import { DrainState } from '../http/drain';
import { Metrics } from '../observability/metrics';

/** How long one ping's answer stands for every probe (the balancer checks each instance every 500 ms). */
const PING_FRESH_MS = 250;

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
    private readonly metrics: Metrics,
  ) {}

  @Get('live')
  @ApiOperation({
    operationId: 'live',
    summary: 'Liveness: the process answers',
    description: 'Answers 200 while the process runs, whatever the database does: a failing check means restart the process.',
  })
  @ApiResponse({ status: 200, description: 'The process is up.', content: { 'application/json': { schema: HEALTH_SCHEMA } } })
  @ApiPublicErrorResponses()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'ready',
    summary: 'Readiness: the database answers and the instance is not shutting down',
    description: `Answers 200 when a ping of the database succeeds (one ping serves every probe for ${PING_FRESH_MS} ms), 503 when it fails or the instance is draining after SIGTERM: send it no traffic then.`,
  })
  @ApiResponse({ status: 200, description: 'The service can serve requests.', content: { 'application/json': { schema: HEALTH_SCHEMA } } })
  @ApiPublicErrorResponses(503)
  async ready(): Promise<{ status: 'ok' }> {
    if (this.drain.draining) {
      this.metrics.readiness(false);
      throw new DomainError('service_unavailable', 'Not ready: shutting down');
    }
    // One ping shared by concurrent probes and reused for PING_FRESH_MS: a flood of probes costs one pool connection.
    const ping = () =>
      this.database
        .pingCheck('database')
        .withTimeout(DATABASE_TIMEOUTS.connectMs + DATABASE_TIMEOUTS.queryMs)
        .cacheFor(PING_FRESH_MS);
    const answers = await this.health.check([ping]).then(
      () => true,
      () => false,
    );
    this.metrics.readiness(answers);
    if (!answers) throw new DomainError('service_unavailable', 'Not ready: the database does not answer');
    return { status: 'ok' };
  }
}
