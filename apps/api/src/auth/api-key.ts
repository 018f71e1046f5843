import { createHash, randomBytes } from 'node:crypto';

/** Who a request acts as, once its key is accepted. Never holds the key itself. */
export interface ApiKeyPrincipal {
  keyId: string;
  label: string;
}

/** `pet_` + 43 base64url characters (32 random bytes): recognisable by secret scanners. */
export function generateApiKey(): string {
  return `pet_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and compared only as SHA-256 digests; a 256-bit random key needs no slow hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
