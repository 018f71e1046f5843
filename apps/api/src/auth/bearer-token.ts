const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 7235), or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}
