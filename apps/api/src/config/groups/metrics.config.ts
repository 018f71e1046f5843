import { OneOf, Rule } from '../rules';
import { isBearerToken, looksRandom } from '../token-rules';
import { Variable, parseBoolean } from '../variable';

/** A METRICS_TOKEN refused whatever NODE_ENV is: not a bearer token, or not random. */
export function isMetricsToken(value: unknown): boolean {
  return isBearerToken(String(value), 32) && looksRandom(String(value));
}

export class MetricsConfig {
  /** `GET /metrics` is served. */
  @Variable({
    name: 'METRICS_ENABLED',
    parse: parseBoolean,
    description: '`false` turns `GET /metrics` off (it answers 404 and nothing is counted)',
  })
  @OneOf([true, false], 'true or false')
  enabled = true;

  /** The bearer token `/metrics` demands; required in production while metrics are on. */
  @Variable({
    name: 'METRICS_TOKEN',
    defaultNote: 'unset (`/metrics` open outside production)',
    requiredInProduction: 'openssl rand -hex 32',
    example: 'output-of-openssl-rand-hex-32',
    description:
      'the bearer token `GET /metrics` demands (32–512 random token characters: production refuses a guessable one); required in production while metrics are on',
  })
  @Rule(isMetricsToken, 'must be a random token of 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. `openssl rand -hex 32`)')
  token?: string;
}
