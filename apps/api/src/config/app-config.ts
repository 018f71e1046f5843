import type { LOG_LEVELS, NODE_ENVS } from './environment';
import type { TracingConfig } from './tracing-config';

/** The service's configuration by concern, built once at start from the validated Environment. */
export interface AppConfig {
  nodeEnv: (typeof NODE_ENVS)[number];
  http: {
    host: string;
    port: number;
    drainDelayMs: number;
    corsOrigins: string[];
    requestTimeoutMs: number;
    maxConnections: number;
    keepAliveTimeoutMs: number;
    trustProxy?: string;
  };
  /** `url` absent: the embedded PostgreSQL in `dataDir` (absolute). */
  database: { url?: string; dataDir: string; poolSize: number; pooling: 'session' | 'transaction'; directUrl?: string };
  /** cursorSecrets: the first signs, every one verifies. */
  auth: { apiKeys: string[]; cursorSecrets: string[] };
  /** perMinute 0: no rate limit. */
  rateLimit: { perMinute: number; redisUrl?: string };
  /** format absent: pretty on a terminal, else JSON. */
  logging: { level: (typeof LOG_LEVELS)[number]; format?: 'json' | 'pretty' };
  metrics: { enabled: boolean; token?: string };
  tracing: TracingConfig;
  openApi: { publicBaseUrl: string; stagingBaseUrl: string };
  /**
   * What production still lacks (each with its fix). Not thrown here: whether an API key exists is known
   * only once the database is open, and every demand is reported at once then (see start-demands.ts).
   */
  productionDemands: string[];
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * `service` (default): everything the service needs. `tool`: the key tool, which signs no cursor and
 * serves nothing, so production's demands do not apply to it.
 */
export type ConfigPurpose = 'service' | 'tool';
