import type { AppConfig, ConfigPurpose } from './app-config';
import { DEV_CURSOR_SECRET } from './secret-rules';

/**
 * What production still lacks (each with the command or form that fixes it). A missing CURSOR_SECRET
 * outside production, or for the key tool (which signs no cursor), gets the development one.
 */
export function productionDemands(config: AppConfig, purpose: ConfigPurpose): string[] {
  const service = config.nodeEnv === 'production' && purpose === 'service';
  const demands: string[] = [];
  // The embedded PostgreSQL is for development, a first run and the tests.
  if (service && config.database.url === undefined) {
    demands.push(
      'DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>',
    );
  }
  if (config.auth.cursorSecrets.length === 0) {
    if (service)
      demands.push(
        'CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`',
      );
    else config.auth.cursorSecrets.push(DEV_CURSOR_SECRET);
  }
  // Refused rather than served to anyone: the metrics describe traffic, keys' refusals and the database.
  if (service && config.metrics.enabled && config.metrics.token === undefined) {
    demands.push(
      'METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)',
    );
  }
  return demands;
}
