import { TEST_API_KEY } from './test-key';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chars = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[int(alphabet.length)]).join('');
  return { int, pick, chars };
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/** 1,000 Authorization values, none of them a valid credential. */
export function hostileHeaders(): (string | undefined)[] {
  const r = random(20261122);
  const mutated = () => {
    const at = r.int(TEST_API_KEY.length);
    return TEST_API_KEY.slice(0, at) + (TEST_API_KEY[at] === 'x' ? 'y' : 'x') + TEST_API_KEY.slice(at + 1);
  };
  const generators: (() => string | undefined)[] = [
    () => undefined,
    () => '',
    () => 'Bearer',
    () => 'Bearer ',
    () => `Bearer ${r.chars(' ', 1 + r.int(50))}`,
    () => `Bearer pet_${r.chars(BASE64URL, 43)}`,
    () => `bearer pet_${r.chars(BASE64URL, 42 + r.pick([-5, 0, 2, 3]))}`,
    () => `Bearer ${'A'.repeat(2000 + r.int(10_000))}`,
    () => `Bearer pet_${'x'.repeat(12_000)}`,
    () => `Bearer ${r.pick(['🐶🐱', 'ключ', '鍵', 'pet_é', '\u200bpet_', 'ﬀ', 'Ω'])}${r.chars(BASE64URL, r.int(40))}`,
    () => `${r.pick(['Bеarer', 'Bearér', 'ベアラー'])} ${TEST_API_KEY}`,
    () =>
      `Bearer ${r.pick(["' OR '1'='1", "'; DROP TABLE api_keys; --", '" OR 1=1 --', "pet_' UNION SELECT key_hash FROM api_keys --", '%27%20OR%201=1', '\\x27'])}`,
    () => `Bearer${r.chars(' ', 2 + r.int(30))}${TEST_API_KEY}`,
    () => `Bearer\t${TEST_API_KEY}`,
    () => `Bearer \t${TEST_API_KEY}`,
    () => `\tBearer\t${r.chars(BASE64URL, 20)}`,
    () => `${r.pick(['Basic', 'Digest', 'Token', 'ApiKey', 'Negotiate', 'OAuth', 'Bearer:', 'Bearer='])} ${TEST_API_KEY}`,
    () => `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString('base64')}`,
    () => TEST_API_KEY,
    () => `Bearer ${mutated()}`,
    () => `Bearer ${TEST_API_KEY} ${TEST_API_KEY}`,
    () => `Bearer ${TEST_API_KEY},Bearer ${TEST_API_KEY}`,
    () => `Bearer "${TEST_API_KEY}"`,
    () => `Bearer ${TEST_API_KEY.toUpperCase()}`,
    () => r.chars(PRINTABLE, 1 + r.int(300)),
    () => `Bearer ${r.chars(PRINTABLE, 1 + r.int(300))}`,
    () => `Bearer ${Array.from({ length: 1 + r.int(40) }, () => String.fromCharCode(0x80 + r.int(0x7f))).join('')}`,
  ];
  return Array.from({ length: 1000 }, (_, i) => generators[i % generators.length]());
}
