import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Whether an Authorization header carries `token` as a bearer token. Both sides are hashed first, so the
 * comparison runs in constant time whatever the lengths, and says nothing about how close a guess was.
 */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const presented = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
