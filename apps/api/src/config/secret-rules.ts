import { ValidateBy, ValidationArguments } from 'class-validator';

/** Development and tests only: cursors then survive restarts. */
export const DEV_CURSOR_SECRET = 'petstore-development-cursor-secret-not-for-production';
/** Published (this one and `.env.example`'s samples), so production refuses them whatever their strength. */
const PLACEHOLDERS = [DEV_CURSOR_SECRET, 'output-of-openssl-rand-base64-32', 'output-of-openssl-rand-hex-32'];
const MIN_BITS = 64;
const KEY_FIX = 'openssl rand -base64 32';
const TOKEN_FIX = 'openssl rand -hex 32';

/** A rule on a secret or each entry of a list (`entry N`); production also refuses a guessable one. Never echoes the secret. */
function Secret(fix: string, format: (secret: string) => string | undefined): PropertyDecorator {
  const problems = ({ value, object }: ValidationArguments) =>
    (Array.isArray(value) ? value : [value]).flatMap((secret: string, index) => {
      const problem = format(secret) ?? ((object as { NODE_ENV?: string }).NODE_ENV === 'production' ? weakness(secret, fix) : undefined);
      return problem ? [`$property${Array.isArray(value) ? ` entry ${index + 1}` : ''} ${problem}`] : [];
    });
  return ValidateBy({
    name: 'secret',
    validator: { validate: (_value, args) => problems(args!).length === 0, defaultMessage: (args) => problems(args!).join('\n') },
  });
}

export const IsApiKeys = Secret(KEY_FIX, (key) => {
  if (!isBearerToken(key, 16)) return 'must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /';
  if (!looksRandom(key)) return 'is too easy to guess: use a random key (e.g. `pnpm -s keys create`, or `openssl rand -base64 32`)';
});
export const IsCursorSecrets = Secret(KEY_FIX, (secret) => (secret.length < 32 ? `must be at least 32 characters (e.g. \`${KEY_FIX}\`)` : undefined));
export const IsMetricsToken = Secret(TOKEN_FIX, (token) =>
  isBearerToken(token, 32) && looksRandom(token)
    ? undefined
    : `must be a random token of 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. \`${TOKEN_FIX}\`)`,
);

/** RFC 6750's b64token: the characters a bearer token may hold. */
function isBearerToken(token: string, minLength: number): boolean {
  return /^[A-Za-z0-9\-._~+/]+=*$/.test(token) && token.length >= minLength && token.length <= 512;
}

/** Enough distinct characters for its length (Shannon entropy times length): 16 identical ones carry 0 bits. */
function looksRandom(token: string): boolean {
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  return [...counts.values()].reduce((bits, count) => bits - count * Math.log2(count / token.length), 0) >= MIN_BITS;
}

function weakness(secret: string, fix: string): string | undefined {
  if (PLACEHOLDERS.includes(secret)) return `is a published placeholder, known to anyone: make one with \`${fix}\``;
  const bits = patternBits(secret);
  if (bits < MIN_BITS) return `is too easy to guess (an estimated ${Math.floor(bits)} bits; at least ${MIN_BITS} needed): make one with \`${fix}\``;
}

/** A guesser's view: log2(distinct characters) per character that continues no pattern (`aaa`, `abc`, a repeated triple, our own words). */
function patternBits(secret: string): number {
  const characters = [...secret.replace(/petstore|pet|store|api|keys?|secret|cursor|metrics|token|changeme|password|production/gi, '\u0000')];
  const code = (index: number) => characters[index].codePointAt(0)!;
  const seen = new Set<string>();
  const fresh = characters.filter((_character, index) => {
    if (index < 2) return true;
    const step = code(index) - code(index - 1);
    const triple = characters.slice(index - 2, index + 1).join('');
    const patterned = (Math.abs(step) <= 1 && step === code(index - 1) - code(index - 2)) || seen.has(triple);
    seen.add(triple);
    return !patterned;
  });
  return fresh.length * Math.log2(new Set(characters).size || 1);
}
