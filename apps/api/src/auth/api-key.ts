import { hash, randomBytes } from 'node:crypto';

/** What a key may do. Each operation needs one of these; a key holds any subset. */
export const API_KEY_SCOPES = ['pets:read', 'pets:write', 'orders:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** `pet_` + 43 base64url characters (32 random bytes): recognisable by secret scanners. */
export const API_KEY_FORMAT = /^pet_[A-Za-z0-9_-]{43}$/;

/** Who a request acts as, once its key is accepted. Never holds the key itself. */
export interface ApiKeyPrincipal {
  keyId: string;
  label: string;
  scopes: readonly ApiKeyScope[];
}

export function generateApiKey(): string {
  return `pet_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and compared only as SHA-256 digests: a 256-bit random key needs no slow hash (one-shot: one a request). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A comma-separated scope list; none means every scope, but a list naming none (`,`) is refused: an emptied variable grants nothing. */
export function parseScopes(raw: string | undefined): ApiKeyScope[] {
  if (raw === undefined) return [...API_KEY_SCOPES];
  const names = raw.split(',').flatMap((s) => s.trim() || []);
  if (names.length === 0) throw new Error(`the list names no scope: the scopes are ${API_KEY_SCOPES.join(', ')}`);
  const unknown = names.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`Unknown scope ${unknown.join(', ')}: the scopes are ${API_KEY_SCOPES.join(', ')}`);
  return API_KEY_SCOPES.filter((s) => names.includes(s));
}
