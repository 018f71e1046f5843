import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import cluster from 'node:cluster';
import { workerScrape } from './cluster-metrics';
import { methodLabel, routeLabel } from './route-label';

/** What the hot path holds: a pre-bound series, or a no-op when metrics are off. */
export interface Count {
  /** One more (the default), or `0` to export the series before its first event. */
  inc(value?: number): void;
}
export interface Timing {
  observe(seconds: number): void;
}
const NOOP: Count & Timing = { inc: () => undefined, observe: () => undefined };

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Seconds; a cached-key GET takes about a millisecond, a stuck one is cut at REQUEST_TIMEOUT_MS. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3];

/**
 * The service's Prometheus metrics (prom-client), in a registry of their own. Every label value is
 * chosen by the service (a route template, a statement name, a fixed reason), never by a client, so
 * the number of series is bounded by the code. Series are bound once and kept, so a request costs a
 * map lookup and two increments. With METRICS_ENABLED=false every handle is a no-op.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests?: Counter<'method' | 'route' | 'status'>;
  private readonly durations?: Histogram<'method' | 'route' | 'status'>;
  private readonly statements?: Histogram<'statement' | 'outcome'>;
  private readonly requestSeries = new Map<string, { count: Count; duration: Timing }>();
  private readonly statementSeries = new Map<string, { ok: Timing; error: Timing }>();
  private pool: () => PoolStats | undefined = () => undefined;
  /** A worker of WEB_CONCURRENCY > 1 answers a scrape with every worker's metrics (see cluster-metrics). */
  private readonly scrape: () => Promise<string>;

  readonly keyCache: { hit: Count; miss: Count };
  readonly authRefusals: { missing: Count; invalid: Count; forbidden: Count };
  readonly rateLimited: { apiKey: Count; address: Count };
  readonly idempotency: { replayed: Count; keyReused: Count; inProgress: Count };

  constructor(readonly enabled: boolean) {
    this.scrape = enabled && cluster.isWorker ? workerScrape(this.registry) : () => this.registry.metrics();
    if (!enabled) {
      this.keyCache = { hit: NOOP, miss: NOOP };
      this.authRefusals = { missing: NOOP, invalid: NOOP, forbidden: NOOP };
      this.rateLimited = { apiKey: NOOP, address: NOOP };
      this.idempotency = { replayed: NOOP, keyReused: NOOP, inProgress: NOOP };
      return;
    }
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'petstore_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'petstore_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.statements = new Histogram({
      name: 'petstore_db_statement_duration_seconds',
      help: 'Time of one SQL statement, by statement name and outcome (ok, error)',
      labelNames: ['statement', 'outcome'],
      buckets: STATEMENT_BUCKETS,
      registers,
    });
    const read = () => this.pool() ?? { totalCount: 0, idleCount: 0, waitingCount: 0 };
    new Gauge({
      name: 'petstore_db_pool_connections',
      help: 'Connections the pool holds to PostgreSQL',
      registers,
      collect() {
        this.set(read().totalCount);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_idle_connections',
      help: 'Pool connections not running a statement',
      registers,
      collect() {
        this.set(read().idleCount);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_waiting_requests',
      help: 'Statements waiting for a pool connection',
      registers,
      collect() {
        this.set(read().waitingCount);
      },
    });
    const cache = new Counter({
      name: 'petstore_api_key_cache_lookups_total',
      help: 'Look-ups of issued API keys in the in-process cache, by result (hit, miss: asked the database)',
      labelNames: ['result'],
      registers,
    });
    this.keyCache = { hit: cache.labels('hit'), miss: cache.labels('miss') };
    const auth = new Counter({
      name: 'petstore_auth_refusals_total',
      help: 'Requests refused by authentication (missing, invalid key: 401) or authorisation (forbidden: 403)',
      labelNames: ['reason'],
      registers,
    });
    this.authRefusals = { missing: auth.labels('missing'), invalid: auth.labels('invalid'), forbidden: auth.labels('forbidden') };
    const limited = new Counter({
      name: 'petstore_rate_limited_total',
      help: 'Requests refused with 429, by limit (api_key: the per-key quota; address: too many failed authentications)',
      labelNames: ['limit'],
      registers,
    });
    this.rateLimited = { apiKey: limited.labels('api_key'), address: limited.labels('address') };
    const idempotency = new Counter({
      name: 'petstore_idempotency_total',
      help: 'Idempotency-Key outcomes other than a first run: replayed, key_reused (422), in_progress (409)',
      labelNames: ['outcome'],
      registers,
    });
    this.idempotency = {
      replayed: idempotency.labels('replayed'),
      keyReused: idempotency.labels('key_reused'),
      inProgress: idempotency.labels('in_progress'),
    };
    // Every fixed series is exported from the start at 0: a rate over a series that appears late misses its first increments.
    for (const group of [this.keyCache, this.authRefusals, this.rateLimited, this.idempotency])
      for (const count of Object.values<Count>(group)) count.inc(0);
  }

  /** One answered request; `template` is Fastify's route template, undefined when no route matched. */
  observeRequest(method: string, template: string | undefined, status: number, milliseconds: number): void {
    const key = `${method} ${template} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method: methodLabel(method), route: routeLabel(template), status: String(status) };
      series = { count: this.requests!.labels(labels), duration: this.durations!.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(milliseconds / 1000);
  }

  /** The timings of one statement (names are constants in the code), bound at the first use. */
  statement(name: string): { ok: Timing; error: Timing } {
    let series = this.statementSeries.get(name);
    if (!series) {
      series = this.statements ? { ok: this.statements.labels(name, 'ok'), error: this.statements.labels(name, 'error') } : { ok: NOOP, error: NOOP };
      this.statementSeries.set(name, series);
    }
    return series;
  }

  /** The pool to report on, read at each scrape. */
  watchPool(read: () => PoolStats | undefined): void {
    this.pool = read;
  }

  render(): Promise<string> {
    return this.scrape();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
