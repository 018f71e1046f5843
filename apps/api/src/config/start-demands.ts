import type { AppConfig } from './app-config';

/**
 * What production still lacks that is known without a database. When something is missing the start
 * stops before connecting, so whether the database holds an API key is not known yet: with API_KEYS
 * empty, that is said too, so one attempt names everything there may be to do.
 */
export function startDemands(config: AppConfig): string[] {
  if (config.productionDemands.length === 0) return [];
  const keyDemand =
    'API_KEYS is empty and the database is not opened until the above are set: unless it already holds a key, create one with `pnpm keys create --name <label>` (same DATABASE_URL or DATA_DIR) or set API_KEYS';
  return config.auth.apiKeys.length > 0 ? config.productionDemands : [...config.productionDemands, keyDemand];
}
