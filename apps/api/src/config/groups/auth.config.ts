import { EachEntry, IntegerIn, Rule } from '../rules';
import { isBearerToken, looksRandom } from '../token-rules';
import { Variable, parseInteger, parseList } from '../variable';

const CURSOR_SECRET_MIN_LENGTH = 32;

/** Why an API_KEYS entry is refused whatever NODE_ENV is, or undefined. */
export function apiKeyProblem(key: string, index: number): string | undefined {
  if (!isBearerToken(key, 16)) return `entry ${index + 1} must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /`;
  if (!looksRandom(key))
    return `entry ${index + 1} is too easy to guess: use a random key (e.g. \`pnpm -s keys create\`, or \`openssl rand -base64 32\`)`;
  return undefined;
}

export function cursorSecretsLongEnough(secrets: unknown): boolean {
  return (secrets as string[]).every((secret) => secret.length >= CURSOR_SECRET_MIN_LENGTH);
}

/** Who may call: the bootstrap keys, the cursor-signing secrets, the budget of failed authentications. */
export class AuthConfig {
  /** Bootstrap API keys, holding every scope. */
  @Variable({
    name: 'API_KEYS',
    parse: parseList,
    example: 'pet_…',
    description:
      'comma-separated keys holding every scope, kept in memory only (16–512 characters of `A-Z a-z 0-9 - . _ ~ + /`, random: production refuses a guessable one). Or create keys with `pnpm keys create`',
  })
  @EachEntry(apiKeyProblem)
  apiKeys: string[] = [];

  /**
   * Keys that sign list cursors: the first signs, every one verifies, so a secret can be rotated without
   * breaking cursors in flight. Every instance must share them. Unset: a development one (see
   * production-rules.ts), or a production demand.
   */
  @Variable({
    name: 'CURSOR_SECRET',
    parse: parseList,
    defaultNote: 'built-in (development and test only)',
    requiredInProduction: 'openssl rand -base64 32',
    example: 'output-of-openssl-rand-base64-32',
    description:
      'comma-separated secrets (each at least 32 characters, random: production refuses a guessable one or a placeholder) signing list cursors: the first signs, every one verifies; the same on every instance',
  })
  @Rule(cursorSecretsLongEnough, `entries must be at least ${CURSOR_SECRET_MIN_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`)
  cursorSecrets: string[] = [];

  /** Failed authentications a client address may make per minute before it is refused (429); 0: no limit. */
  @Variable({
    name: 'AUTH_FAILURES_PER_MINUTE',
    parse: parseInteger,
    description:
      'failed authentications a client address (IPv6: its /64) may make per minute before it gets 429 (`0`: no limit); a valid key still passes. Counted in Redis with `REDIS_URL`',
  })
  @IntegerIn(0, 100_000, '0 (off)')
  failuresPerMinute = 60;
}
