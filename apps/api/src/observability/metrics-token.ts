import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/bearer-token';

/**
 * Whether an Authorization header carries `token` as a bearer token. Both sides are hashed first, so the
 * comparison runs in constant time whatever the lengths, and says nothing about how close a guess was.
 */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const presented = bearerToken(authorization);
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
