import type { Environment } from './environment';

/**
 * What a production service still lacks, each with the command or the form that fixes it. Checked only
 * for the service in production: development and tests get a built-in cursor secret, an open /metrics
 * and the embedded PostgreSQL; the key tool signs no cursor and serves nothing.
 */
export function productionDemands(environment: Environment): string[] {
  const demands: string[] = [];
  if (environment.DATABASE_URL === undefined) {
    demands.push(
      'DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>',
    );
  }
  if (environment.CURSOR_SECRET.length === 0) {
    demands.push(
      'CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`',
    );
  }
  // Refused rather than served to anyone: the metrics describe traffic, keys' refusals and the database.
  if (environment.METRICS_ENABLED && environment.METRICS_TOKEN === undefined) {
    demands.push(
      'METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)',
    );
  }
  return demands;
}
