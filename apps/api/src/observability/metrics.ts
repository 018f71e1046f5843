import { Gauge, Registry } from 'prom-client';
import { collectProcessMetrics } from './process-metrics';
import { methodLabel, routeLabel } from './route-label';
import { BoundCounter, BoundHistogram, type Count, type Timing } from './bound-series';

export type { Count, Timing };
const NOOP: Count & Timing = { inc: () => undefined, observe: () => undefined };

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Seconds; a cached-key GET takes about a millisecond, a stuck one is cut at REQUEST_TIMEOUT_MS. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3];

/** The pool gauges, read at each scrape: name, help, and the field of pg's pool they report. */
const POOL_GAUGES: [string, string, keyof PoolStats][] = [
  ['petstore_db_pool_connections', 'Connections the pool holds to PostgreSQL', 'totalCount'],
  ['petstore_db_pool_idle_connections', 'Pool connections not running a statement', 'idleCount'],
  ['petstore_db_pool_waiting_requests', 'Statements waiting for a pool connection', 'waitingCount'],
];

/** The counters of events with a fixed set of reasons: name, help, label, and `{ handle: label value }`. */
const FIXED_COUNTERS = {
  keyCache: [
    'petstore_api_key_cache_lookups_total',
    'Look-ups of issued API keys in the in-process cache, by result (hit, miss: asked the database)',
    'result',
    { hit: 'hit', miss: 'miss' },
  ],
  authRefusals: [
    'petstore_auth_refusals_total',
    'Requests refused by authentication (missing, invalid key: 401) or authorisation (forbidden: 403)',
    'reason',
    { missing: 'missing', invalid: 'invalid', forbidden: 'forbidden' },
  ],
  rateLimited: [
    'petstore_rate_limited_total',
    'Requests refused with 429, by limit (api_key: the per-key quota; address: too many failed authentications)',
    'limit',
    { apiKey: 'api_key', address: 'address' },
  ],
  redis: [
    'petstore_redis_checks_total',
    'Rate-limit and failed-authentication checks in Redis, by outcome (ok; failed: an error or no answer in 500 ms; skipped: not asked, the circuit is open after 3 failures in a row); failed and skipped checks fail open',
    'outcome',
    { ok: 'ok', failed: 'failed', skipped: 'skipped' },
  ],
  idempotency: [
    'petstore_idempotency_total',
    'Idempotency-Key outcomes other than a first run: replayed, key_reused (422), in_progress (409)',
    'outcome',
    { replayed: 'replayed', keyReused: 'key_reused', inProgress: 'in_progress' },
  ],
} as const;

/** A counter whose one label takes a fixed set of values, each bound up front: `{ handle: label value }` in, `{ handle: Count }` out. */
function fixedCounter<K extends string>(
  registers: Registry[],
  name: string,
  help: string,
  label: string,
  values: Record<K, string>,
): Record<K, Count> {
  const counter = new BoundCounter(name, help, [label]).registerIn(registers);
  return Object.fromEntries(Object.entries<string>(values).map(([handle, value]) => [handle, counter.bind({ [label]: value })])) as Record<K, Count>;
}

/** The handles of one of FIXED_COUNTERS, named as in its table. */
type Handles<C extends keyof typeof FIXED_COUNTERS> = Record<keyof (typeof FIXED_COUNTERS)[C][3], Count>;

/** Metrics off: the same handles, each a no-op. */
function noops<K extends string>(values: Record<K, string>): Record<K, Count> {
  return Object.fromEntries(Object.keys(values).map((handle): [string, Count] => [handle, NOOP])) as Record<K, Count>;
}

interface RequestSeries {
  count: Count;
  duration: Timing;
}

/**
 * The service's Prometheus metrics (prom-client), in a registry of their own. Every label value is
 * chosen by the service (a route template, a statement name, a fixed reason), never by a client, so
 * the number of series is bounded by the code. Series are bound once and kept (see bound-series.ts), so a
 * request costs three map lookups and two field updates. With METRICS_ENABLED=false every handle is a no-op.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests?: BoundCounter<'method' | 'route' | 'status'>;
  private readonly durations?: BoundHistogram<'method' | 'route' | 'status'>;
  private readonly statements?: BoundHistogram<'statement' | 'outcome'>;
  private readonly deprecatedCalls?: BoundCounter<'operation'>;
  /** By route template, status, then method: no key string is built per request. */
  private readonly requestSeries = new Map<string | undefined, Map<number, Map<string, RequestSeries>>>();
  private readonly statementSeries = new Map<string, { ok: Timing; error: Timing }>();
  private pool: () => PoolStats | undefined = () => undefined;
  private readonly readinessChanges: Count = NOOP;
  /** The last readiness answer (undefined before the first check). */
  private ready?: boolean;

  readonly keyCache: Handles<'keyCache'>;
  readonly authRefusals: Handles<'authRefusals'>;
  readonly rateLimited: Handles<'rateLimited'>;
  readonly redis: Handles<'redis'>;
  readonly idempotency: Handles<'idempotency'>;

  constructor(readonly enabled: boolean) {
    if (!enabled) {
      this.keyCache = noops(FIXED_COUNTERS.keyCache[3]);
      this.authRefusals = noops(FIXED_COUNTERS.authRefusals[3]);
      this.rateLimited = noops(FIXED_COUNTERS.rateLimited[3]);
      this.redis = noops(FIXED_COUNTERS.redis[3]);
      this.idempotency = noops(FIXED_COUNTERS.idempotency[3]);
      return;
    }
    const registers = [this.registry];
    collectProcessMetrics(this.registry);
    this.requests = new BoundCounter('petstore_http_requests_total', 'HTTP requests answered, by method, route template and status', [
      'method',
      'route',
      'status',
    ]).registerIn(registers);
    this.durations = new BoundHistogram(
      'petstore_http_request_duration_seconds',
      'Time from receiving a request to the end of its answer',
      ['method', 'route', 'status'],
      HTTP_BUCKETS,
    ).registerIn(registers);
    this.statements = new BoundHistogram(
      'petstore_db_statement_duration_seconds',
      'Time of one SQL statement, by statement name and outcome (ok, error)',
      ['statement', 'outcome'],
      STATEMENT_BUCKETS,
    ).registerIn(registers);
    this.deprecatedCalls = new BoundCounter(
      'petstore_deprecated_calls_total',
      'Answered calls of deprecated operations, by operationId: their callers must move before the sunset',
      ['operation'],
    ).registerIn(registers);
    const read = () => this.pool() ?? { totalCount: 0, idleCount: 0, waitingCount: 0 };
    for (const [name, help, field] of POOL_GAUGES)
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read()[field]);
        },
      });
    const readiness = () => (this.ready ? 1 : 0);
    new Gauge({
      name: 'petstore_ready',
      help: 'The last answer of GET /health/ready: 1 ready, 0 not ready (or not asked yet)',
      registers,
      collect() {
        this.set(readiness());
      },
    });
    this.readinessChanges = new BoundCounter(
      'petstore_readiness_changes_total',
      'Changes of the readiness answer (ready to not ready and back): a flapping instance counts many',
      [],
    )
      .registerIn(registers)
      .bind({});
    this.keyCache = fixedCounter(registers, ...FIXED_COUNTERS.keyCache);
    this.authRefusals = fixedCounter(registers, ...FIXED_COUNTERS.authRefusals);
    this.rateLimited = fixedCounter(registers, ...FIXED_COUNTERS.rateLimited);
    this.redis = fixedCounter(registers, ...FIXED_COUNTERS.redis);
    this.idempotency = fixedCounter(registers, ...FIXED_COUNTERS.idempotency);
    // Binding exports every fixed series from the start at 0: a rate over a series that appears late misses its first increments.
  }

  /** One answered request; `template` is Fastify's route template, undefined when no route matched. */
  observeRequest(method: string, template: string | undefined, status: number, milliseconds: number): void {
    let byStatus = this.requestSeries.get(template);
    if (!byStatus) this.requestSeries.set(template, (byStatus = new Map<number, Map<string, RequestSeries>>()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map<string, RequestSeries>()));
    let series = byMethod.get(method);
    if (!series) {
      const labels = { method: methodLabel(method), route: routeLabel(template), status: String(status) };
      series = { count: this.requests!.bind(labels), duration: this.durations!.bind(labels) };
      byMethod.set(method, series);
    }
    series.count.inc();
    series.duration.observe(milliseconds / 1000);
  }

  /** The timings of one statement (names are constants in the code), bound at the first use. */
  statement(name: string): { ok: Timing; error: Timing } {
    let series = this.statementSeries.get(name);
    if (!series) {
      series = this.statements
        ? { ok: this.statements.bind({ statement: name, outcome: 'ok' }), error: this.statements.bind({ statement: name, outcome: 'error' }) }
        : { ok: NOOP, error: NOOP };
      this.statementSeries.set(name, series);
    }
    return series;
  }

  /** The count of one deprecated operation's calls; bound when its route is registered, so it is exported from 0. */
  deprecatedCall(operation: string): Count {
    return this.deprecatedCalls?.bind({ operation }) ?? NOOP;
  }

  /** One readiness answer; a change from the previous one is counted. */
  readiness(ready: boolean): void {
    if (this.ready !== undefined && this.ready !== ready) this.readinessChanges.inc();
    this.ready = ready;
  }

  /** The pool to report on, read at each scrape. */
  watchPool(read: () => PoolStats | undefined): void {
    this.pool = read;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
