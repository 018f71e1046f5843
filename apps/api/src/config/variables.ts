import { AuthConfig } from './groups/auth.config';
import { DatabaseConfig } from './groups/database.config';
import { EnvironmentConfig } from './groups/environment.config';
import { HttpConfig } from './groups/http.config';
import { LoggingConfig } from './groups/logging.config';
import { MetricsConfig } from './groups/metrics.config';
import { OpenApiConfig } from './groups/openapi.config';
import { RateLimitConfig } from './groups/rate-limit.config';
import { TracingSdkVariables, TracingVariables } from './groups/tracing.config';
import { VariableDoc, variablesOf } from './variable';

/**
 * Every environment variable the service honours, in the order of the README's configuration table and
 * `.env.example` (`pnpm config:docs` writes both): each is declared once, in its group under groups/.
 * Adding a variable is one decorated property there.
 */
export const CONFIG_VARIABLES: readonly VariableDoc[] = [
  EnvironmentConfig,
  HttpConfig,
  DatabaseConfig,
  AuthConfig,
  RateLimitConfig,
  LoggingConfig,
  MetricsConfig,
  TracingVariables,
  TracingSdkVariables,
  OpenApiConfig,
].flatMap(variablesOf);

/** The command that makes a value production requires, as its declaration says. */
export function productionFix(name: string): string | undefined {
  return CONFIG_VARIABLES.find((variable) => variable.name === name)?.requiredInProduction;
}
