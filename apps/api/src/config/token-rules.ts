// RFC 6750 b64token: the characters a bearer token may hold.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** An API key or the metrics token must carry at least this much (estimated) randomness. */
const MIN_KEY_BITS = 64;

export function isBearerToken(token: string, minLength: number): boolean {
  return BEARER_TOKEN.test(token) && token.length >= minLength && token.length <= 512;
}

/** Enough distinct characters for its length: 16 identical characters carry 0 bits. */
export function looksRandom(token: string): boolean {
  return estimatedBits(token) >= MIN_KEY_BITS;
}

/** Shannon entropy of the token's characters times its length. */
function estimatedBits(token: string): number {
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / token.length) * Math.log2(count / token.length);
  return perCharacter * token.length;
}
