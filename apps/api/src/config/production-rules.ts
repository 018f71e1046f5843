import type { AppConfig, ConfigPurpose } from './app-config';
import { apiKeyProblem, cursorSecretsLongEnough } from './groups/auth.config';
import { isMetricsToken } from './groups/metrics.config';
import type { Environment } from './read-group';
import { secretCheck } from './secret-strength';
import { CONFIG_VARIABLES, productionFix } from './variables';

/** Development only: cursors then survive restarts. Production must set its own secret. */
export const DEV_CURSOR_SECRET = 'petstore-development-cursor-secret-not-for-production';

/**
 * The rules across variables, once each group has passed its own. Adds their problems to `problems` and
 * returns what production still lacks (each with the command that fixes it); a missing CURSOR_SECRET
 * outside production gets the development one.
 */
export function crossVariableRules(config: AppConfig, env: Environment, purpose: ConfigPurpose, problems: string[]): string[] {
  if ((env.DATABASE_DIRECT_URL || env.DATABASE_POOLING) && config.database.url === undefined) {
    problems.push('DATABASE_POOLING and DATABASE_DIRECT_URL describe a PostgreSQL server: they need DATABASE_URL');
  }
  const { auth, metrics } = config;
  const production = config.nodeEnv === 'production';
  // Production's secrets must be random: the values this project publishes (.env.example, the
  // development default) and guessable ones are refused, each named with the command that makes a good one.
  const weaknessOf = secretCheck([DEV_CURSOR_SECRET, ...CONFIG_VARIABLES.flatMap((variable) => variable.example ?? [])]);
  const strong = (subject: string, secret: string, fix: string | undefined) => {
    const weakness = production ? weaknessOf(secret) : undefined;
    if (weakness) problems.push(`${subject} ${weakness}: make one with \`${fix}\``);
  };
  auth.apiKeys.forEach((key, index) => {
    if (apiKeyProblem(key, index) === undefined) strong(`API_KEYS entry ${index + 1}`, key, 'openssl rand -base64 32');
  });
  if (cursorSecretsLongEnough(auth.cursorSecrets)) {
    auth.cursorSecrets.forEach((secret, index) => strong(`CURSOR_SECRET entry ${index + 1}`, secret, productionFix('CURSOR_SECRET')));
  }
  if (metrics.token !== undefined && isMetricsToken(metrics.token)) strong('METRICS_TOKEN', metrics.token, productionFix('METRICS_TOKEN'));

  const demands: string[] = [];
  if (auth.cursorSecrets.length === 0) {
    if (production && purpose === 'service') {
      demands.push(
        `CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with \`${productionFix('CURSOR_SECRET')}\``,
      );
    } else auth.cursorSecrets.push(DEV_CURSOR_SECRET);
  }
  // Refuse rather than serve the metrics to anyone: they describe traffic, keys' refusals and the database.
  if (metrics.enabled && metrics.token === undefined && production && purpose === 'service') {
    demands.push(
      `METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with \`${productionFix('METRICS_TOKEN')}\` (or set METRICS_ENABLED=false)`,
    );
  }
  return demands;
}
