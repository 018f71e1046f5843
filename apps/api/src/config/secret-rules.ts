import { ValidateBy, ValidationArguments } from 'class-validator';

/** Development and tests only: cursors then survive restarts. Production must set its own secret. */
export const DEV_CURSOR_SECRET = 'petstore-development-cursor-secret-not-for-production';
/** The sample values of `.env.example`: published, so production refuses them whatever their strength. */
export const SAMPLE_CURSOR_SECRET = 'output-of-openssl-rand-base64-32';
export const SAMPLE_METRICS_TOKEN = 'output-of-openssl-rand-hex-32';
const PLACEHOLDERS = [DEV_CURSOR_SECRET, SAMPLE_CURSOR_SECRET, SAMPLE_METRICS_TOKEN];

/** What a secret may need to know of the rest of the environment. */
type Check = (secret: string, production: boolean) => string | undefined;

/**
 * A class-validator rule on a secret, or on each entry of a list of them (named `entry N`): `check`
 * says what is wrong with one. The message never echoes the secret; each of its lines is one problem.
 */
export function Secret(check: Check): PropertyDecorator {
  const problems = ({ value, object }: ValidationArguments) => {
    const production = (object as { NODE_ENV?: string }).NODE_ENV === 'production';
    const list: unknown[] = Array.isArray(value) ? value : [value];
    return list.flatMap((secret, index) => {
      const problem = check(String(secret), production);
      return problem ? [`$property${Array.isArray(value) ? ` entry ${index + 1}` : ''} ${problem}`] : [];
    });
  };
  return ValidateBy({
    name: 'secret',
    validator: { validate: (_value, args) => problems(args!).length === 0, defaultMessage: (args) => problems(args!).join('\n') },
  });
}

const KEY_FIX = 'openssl rand -base64 32';

export const apiKeyCheck: Check = (key, production) => {
  if (!isBearerToken(key, 16)) return 'must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /';
  if (!looksRandom(key)) return 'is too easy to guess: use a random key (e.g. `pnpm -s keys create`, or `openssl rand -base64 32`)';
  return production ? weakness(key, KEY_FIX) : undefined;
};

export const cursorSecretCheck: Check = (secret, production) => {
  if (secret.length < 32) return `must be at least 32 characters (e.g. \`${KEY_FIX}\`)`;
  return production ? weakness(secret, KEY_FIX) : undefined;
};

export const metricsTokenCheck: Check = (token, production) => {
  if (!isBearerToken(token, 32) || !looksRandom(token))
    return 'must be a random token of 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. `openssl rand -hex 32`)';
  return production ? weakness(token, 'openssl rand -hex 32') : undefined;
};

// RFC 6750 b64token: the characters a bearer token may hold.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
function isBearerToken(token: string, minLength: number): boolean {
  return BEARER_TOKEN.test(token) && token.length >= minLength && token.length <= 512;
}

/** Every secret must carry at least this many bits, by the estimates below. */
const MIN_BITS = 64;

/** Anywhere: enough distinct characters for its length (Shannon entropy times length); 16 identical ones carry 0 bits. */
function looksRandom(token: string): boolean {
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / token.length) * Math.log2(count / token.length);
  return perCharacter * token.length >= MIN_BITS;
}

/** Production: neither published nor guessable by its patterns. */
function weakness(secret: string, fix: string): string | undefined {
  if (PLACEHOLDERS.includes(secret)) return `is a published placeholder, known to anyone: make one with \`${fix}\``;
  const bits = patternBits(secret);
  if (bits >= MIN_BITS) return undefined;
  return `is too easy to guess (an estimated ${Math.floor(bits)} bits; at least ${MIN_BITS} needed): make one with \`${fix}\``;
}

/** What a guesser tries first against this service: its own words. Each counts as one character. */
const SERVICE_WORDS = /petstore|pet|store|api|keys?|secret|cursor|metrics|token|changeme|password|production/gi;

/**
 * A guesser's view of a secret, roughly: log2 of the number of distinct characters it uses, for every
 * character that does not continue a pattern. A character continues one when it repeats or extends the
 * step of the two before it (`aaa`, `abc`, `987`), or ends three characters seen before (`changeme-changeme`).
 * A random 32-byte value scores over 200; `abcdefghijklmnop` 8, `petstore-api-key-2026` under 30.
 */
export function patternBits(secret: string): number {
  const characters = [...secret.replace(SERVICE_WORDS, '\u0000')];
  const code = (index: number) => characters[index].codePointAt(0)!;
  const seen = new Set<string>();
  let fresh = 0;
  characters.forEach((_character, index) => {
    if (index < 2) return void fresh++;
    const step = code(index) - code(index - 1);
    const triple = characters.slice(index - 2, index + 1).join('');
    const patterned = (Math.abs(step) <= 1 && step === code(index - 1) - code(index - 2)) || seen.has(triple);
    seen.add(triple);
    if (!patterned) fresh++;
  });
  return fresh * Math.log2(new Set(characters).size || 1);
}
