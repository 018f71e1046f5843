import type { Environment } from './environment';

/** What a production service still lacks, each with its fix (the key tool signs no cursor and serves nothing). */
export function productionDemands(environment: Environment): string[] {
  return [
    environment.DATABASE_URL === undefined &&
      'DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>',
    environment.CURSOR_SECRET.length === 0 &&
      'CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`',
    // Refused rather than served to anyone: the metrics describe traffic, keys' refusals and the database.
    environment.METRICS_ENABLED &&
      environment.METRICS_TOKEN === undefined &&
      'METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)',
  ].filter((demand) => demand !== false);
}

/** The demands checked before the database opens: whether it holds a key is not known yet, so that is named too. */
export function startDemands(demands: string[], apiKeys: string[]): string[] {
  if (demands.length === 0 || apiKeys.length > 0) return demands;
  return [
    ...demands,
    'API_KEYS is empty and the database is not opened until the above are set: unless it already holds a key, create one with `pnpm keys create --name <label>` (`./keys.sh create --name <label>` in the image; same DATABASE_URL or DATA_DIR) or set API_KEYS',
  ];
}
