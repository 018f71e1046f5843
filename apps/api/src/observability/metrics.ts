import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type Count = Counter.Internal;
const OUTCOMES = ['ok', 'conflict', 'error'] as const;
type Outcome = (typeof OUTCOMES)[number];
type Series = Histogram.Internal<string>;
export type PoolStats = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

/** A method outside these (`PROPFIND`, `MKCOL`: Node's parser knows dozens) counts as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The service's series (deploy/monitoring's alerts use their names); every label value is chosen by the code, so the series are bounded. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer',
    labelNames: ['method', 'route', 'status'],
    // A cached-key GET takes about a millisecond, a stuck one is cut at REQUEST_TIMEOUT_MS.
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly statements = new Histogram({
    name: 'petstore_db_statement_duration_seconds',
    help: 'Time of one SQL statement, by statement name and outcome (ok; conflict: a constraint refused its row; error)',
    labelNames: ['statement', 'outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
    registers: [this.registry],
  });
  private readonly deprecatedCalls = new Counter({
    name: 'petstore_deprecated_calls_total',
    help: 'Answered calls of deprecated operations, by operationId: their callers must move before the sunset',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  private readonly readinessChanges = new Counter({
    name: 'petstore_readiness_changes_total',
    help: 'Changes of the readiness answer (ready to not ready and back): a flapping instance counts many',
    registers: [this.registry],
  });
  readonly keyCache = this.fixed(
    'petstore_api_key_cache_lookups_total',
    'Look-ups of issued API keys in the in-process cache, by result (hit, miss: asked the database)',
    'result',
    { hit: 'hit', miss: 'miss' },
  );
  readonly authRefusals = this.fixed(
    'petstore_auth_refusals_total',
    'Requests refused by authentication (missing, invalid key: 401) or authorisation (forbidden: 403)',
    'reason',
    { missing: 'missing', invalid: 'invalid', forbidden: 'forbidden' },
  );
  readonly rateLimited = this.fixed(
    'petstore_rate_limited_total',
    'Requests refused with 429, by limit (api_key: the per-key quota; address: too many failed authentications)',
    'limit',
    { apiKey: 'api_key', address: 'address' },
  );
  readonly redis = this.fixed(
    'petstore_redis_checks_total',
    'Rate-limit checks in Redis, by outcome (ok; failed: an error or no answer; skipped: the circuit is open); failed and skipped checks fail open',
    'outcome',
    { ok: 'ok', failed: 'failed', skipped: 'skipped' },
  );
  readonly idempotency = this.fixed(
    'petstore_idempotency_total',
    'Idempotency-Key outcomes other than a first run: replayed, key_reused (422), in_progress (409)',
    'outcome',
    { replayed: 'replayed', keyReused: 'key_reused', inProgress: 'in_progress' },
  );
  /** Bound series, by statement name and by `method route status`: prom-client hashes the labels on every unbound call. */
  private readonly statementSeries = new Map<string, Record<Outcome, Series>>();
  private readonly requestSeries = new Map<string, { count: Count; duration: Histogram.Internal<string> }>();
  private pool: () => PoolStats | undefined = () => undefined;
  private ready?: boolean;

  /** Off (METRICS_ENABLED=false), the series still count but nothing exports them. */
  constructor(enabled: boolean) {
    // The lag histogram samples every 100 ms, not every 10: a timer waking an idle instance 100 times a second cost 8 ms of CPU a second (measured).
    if (enabled) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
    this.readinessChanges.inc(0);
    const gauge = (name: string, help: string, read: () => number) => {
      const metric: Gauge = new Gauge({ name, help, registers: [this.registry], collect: () => metric.set(read()) });
    };
    const pool = () => this.pool() ?? { totalCount: 0, idleCount: 0, waitingCount: 0 };
    gauge('petstore_db_pool_connections', 'Connections the pool holds to PostgreSQL', () => pool().totalCount);
    gauge('petstore_db_pool_idle_connections', 'Pool connections not running a statement', () => pool().idleCount);
    gauge('petstore_db_pool_waiting_requests', 'Statements waiting for a pool connection', () => pool().waitingCount);
    gauge('petstore_ready', 'The last answer of GET /health/ready: 1 ready, 0 not ready (or not asked yet)', () => (this.ready ? 1 : 0));
  }

  /** One answered request; `template` is Fastify's route template, undefined when no route matched. */
  observeRequest(method: string, template: string | undefined, status: number, milliseconds: number): void {
    const name = METHODS.has(method) ? method : 'other';
    const key = `${name} ${template} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method: name, route: routeLabel(template), status };
      this.requestSeries.set(key, (series = { count: this.requests.labels(labels), duration: this.durations.labels(labels) }));
    }
    series.count.inc();
    series.duration.observe(milliseconds / 1000);
  }

  /** Times one statement (names are constants in the code) until its outcome; every outcome is exported from its first use. */
  statement(name: string): (outcome: Outcome) => void {
    let series = this.statementSeries.get(name);
    if (!series) {
      for (const outcome of OUTCOMES) this.statements.zero({ statement: name, outcome });
      series = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, this.statements.labels(name, outcome)])) as Record<Outcome, Series>;
      this.statementSeries.set(name, series);
    }
    const start = performance.now();
    return (outcome) => series[outcome].observe((performance.now() - start) / 1000);
  }

  /** The count of one deprecated operation's calls, exported from 0 once its route is registered. */
  deprecatedCall(operation: string): Count {
    this.deprecatedCalls.inc({ operation }, 0);
    return this.deprecatedCalls.labels(operation);
  }

  readiness(ready: boolean): void {
    if (this.ready !== undefined && this.ready !== ready) this.readinessChanges.inc();
    this.ready = ready;
  }

  watchPool(read: () => PoolStats | undefined): void {
    this.pool = read;
  }

  /** A counter whose one label takes a fixed set of values, each exported at 0 from the start: `{ handle: Count }`. */
  private fixed<K extends string>(name: string, help: string, label: string, values: Record<K, string>): Record<K, Count> {
    const counter = new Counter({ name, help, labelNames: [label], registers: [this.registry] });
    const series = Object.entries<string>(values).map(([handle, value]) => [handle, counter.labels(value)] as const);
    for (const [, count] of series) count.inc(0);
    return Object.fromEntries(series) as Record<K, Count>;
  }
}

/** Fastify's template as the document spells it (`/v1/pets/{petId}`); `unmatched` when no route matched, so paths cannot multiply series. */
export function routeLabel(template: string | undefined): string {
  return template ? template.replace(/:([A-Za-z0-9_]+)/g, '{$1}') : 'unmatched';
}
