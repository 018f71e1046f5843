import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FIXED_COUNTERS, HTTP_BUCKETS, POOL_GAUGES, STATEMENT_BUCKETS, type PoolStats } from './metrics.catalogue';
import { methodLabel, routeLabel } from './route-label';

export type { PoolStats };

/** What the features hold: a prom-client series bound to its labels (or, metrics off, a no-op). */
export interface Count {
  inc(value?: number): void;
}
export interface Timing {
  observe(seconds: number): void;
}
const NOOP: Count & Timing = { inc: () => undefined, observe: () => undefined };

type Handles<C extends keyof typeof FIXED_COUNTERS> = Record<keyof (typeof FIXED_COUNTERS)[C][3], Count>;

/**
 * The service's Prometheus metrics (prom-client), in a registry of their own, with prom-client's default
 * process metrics. Every label value is chosen by the service (a route template, a statement name, a
 * fixed reason), never by a client, so the number of series is bounded by the code. With
 * METRICS_ENABLED=false nothing is registered and every handle is a no-op.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [],
  });
  private readonly durations = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS,
    registers: [],
  });
  private readonly statements = new Histogram({
    name: 'petstore_db_statement_duration_seconds',
    help: 'Time of one SQL statement, by statement name and outcome (ok, error)',
    labelNames: ['statement', 'outcome'],
    buckets: STATEMENT_BUCKETS,
    registers: [],
  });
  private readonly deprecatedCalls = new Counter({
    name: 'petstore_deprecated_calls_total',
    help: 'Answered calls of deprecated operations, by operationId: their callers must move before the sunset',
    labelNames: ['operation'],
    registers: [],
  });
  private readonly readinessChanges = new Counter({
    name: 'petstore_readiness_changes_total',
    help: 'Changes of the readiness answer (ready to not ready and back): a flapping instance counts many',
    registers: [],
  });
  /** Bound series by `method route status`: prom-client's labels() validates and hashes at every call. */
  private readonly requestSeries = new Map<string, { count: Count; duration: Timing }>();
  private readonly statementSeries = new Map<string, { ok: Timing; error: Timing }>();
  private pool: () => PoolStats | undefined = () => undefined;
  /** The last readiness answer (undefined before the first check). */
  private ready?: boolean;

  readonly keyCache: Handles<'keyCache'>;
  readonly authRefusals: Handles<'authRefusals'>;
  readonly rateLimited: Handles<'rateLimited'>;
  readonly redis: Handles<'redis'>;
  readonly idempotency: Handles<'idempotency'>;

  constructor(readonly enabled: boolean) {
    this.keyCache = this.fixedCounter(...FIXED_COUNTERS.keyCache);
    this.authRefusals = this.fixedCounter(...FIXED_COUNTERS.authRefusals);
    this.rateLimited = this.fixedCounter(...FIXED_COUNTERS.rateLimited);
    this.redis = this.fixedCounter(...FIXED_COUNTERS.redis);
    this.idempotency = this.fixedCounter(...FIXED_COUNTERS.idempotency);
    if (!enabled) return;
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests);
    this.registry.registerMetric(this.durations);
    this.registry.registerMetric(this.statements);
    this.registry.registerMetric(this.deprecatedCalls);
    this.registry.registerMetric(this.readinessChanges);
    this.readinessChanges.inc(0);
    const read = () => this.pool() ?? { totalCount: 0, idleCount: 0, waitingCount: 0 };
    for (const [name, help, field] of POOL_GAUGES)
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read()[field]);
        },
      });
    const readiness = () => (this.ready ? 1 : 0);
    new Gauge({
      name: 'petstore_ready',
      help: 'The last answer of GET /health/ready: 1 ready, 0 not ready (or not asked yet)',
      registers: [this.registry],
      collect() {
        this.set(readiness());
      },
    });
  }

  /** One answered request; `template` is Fastify's route template, undefined when no route matched. */
  observeRequest(method: string, template: string | undefined, status: number, milliseconds: number): void {
    const key = `${method} ${template} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = [methodLabel(method), routeLabel(template), String(status)];
      series = { count: this.requests.labels(...labels), duration: this.durations.labels(...labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(milliseconds / 1000);
  }

  /** The timings of one statement (names are constants in the code); both outcomes are exported from its first use. */
  statement(name: string): { ok: Timing; error: Timing } {
    if (!this.enabled) return { ok: NOOP, error: NOOP };
    let series = this.statementSeries.get(name);
    if (!series) {
      for (const outcome of ['ok', 'error']) this.statements.zero({ statement: name, outcome });
      series = { ok: this.statements.labels(name, 'ok'), error: this.statements.labels(name, 'error') };
      this.statementSeries.set(name, series);
    }
    return series;
  }

  /** The count of one deprecated operation's calls, exported from 0 once its route is registered. */
  deprecatedCall(operation: string): Count {
    if (!this.enabled) return NOOP;
    this.deprecatedCalls.inc({ operation }, 0);
    return this.deprecatedCalls.labels(operation);
  }

  /** One readiness answer; a change from the previous one is counted. */
  readiness(ready: boolean): void {
    if (this.ready !== undefined && this.ready !== ready && this.enabled) this.readinessChanges.inc();
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

  /** A counter whose one label takes a fixed set of values, each exported at 0 from the start: `{ handle: Count }`. */
  private fixedCounter<K extends string>(name: string, help: string, label: string, values: Record<K, string>): Record<K, Count> {
    const counter = new Counter({ name, help, labelNames: [label], registers: this.enabled ? [this.registry] : [] });
    const entries = Object.entries<string>(values).map(([handle, value]): [string, Count] => {
      if (!this.enabled) return [handle, NOOP];
      counter.inc({ [label]: value }, 0);
      return [handle, counter.labels(value)];
    });
    return Object.fromEntries(entries) as Record<K, Count>;
  }
}
