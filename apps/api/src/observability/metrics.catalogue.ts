/** The names, help texts and buckets of the service's own series (the alert rules in deploy/monitoring use them). */

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Seconds; a cached-key GET takes about a millisecond, a stuck one is cut at REQUEST_TIMEOUT_MS. */
export const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
export const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3];

/** The pool gauges, read at each scrape: name, help, and the field of pg's pool they report. */
export const POOL_GAUGES: [string, string, keyof PoolStats][] = [
  ['petstore_db_pool_connections', 'Connections the pool holds to PostgreSQL', 'totalCount'],
  ['petstore_db_pool_idle_connections', 'Pool connections not running a statement', 'idleCount'],
  ['petstore_db_pool_waiting_requests', 'Statements waiting for a pool connection', 'waitingCount'],
];

/** The counters of events with a fixed set of reasons: name, help, label, and `{ handle: label value }`. */
export const FIXED_COUNTERS = {
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
    'Rate-limit checks in Redis, by outcome (ok; failed: an error or no answer; skipped: the circuit is open); failed and skipped checks fail open',
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
