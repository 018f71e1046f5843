import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS } from '@petstore/contracts';

/** A reference to one of the schema components of @petstore/contracts. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type HeaderObjects = Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;

/** HTTP headers that come with an error status; what each status means comes from ERROR_CATALOGUE. */
const ERROR_HEADERS: Record<number, HeaderObjects> = {
  401: {
    'WWW-Authenticate': {
      description:
        '`Bearer` when no key was sent; `Bearer error="invalid_token"` when one was refused, with `error_description="The access token expired"` or `"The access token was revoked"` when the key exists but expired or was revoked (RFC 6750).',
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
};

/** The codes of one status, described, with an example body for each. */
function errorResponse(status: number) {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  if (codes.length === 0) throw new Error(`No error code has status ${status} in ERROR_CATALOGUE (@petstore/contracts)`);
  const description = codes.map((code) => `${ERROR_CATALOGUE[code].description} (code \`${code}\`).`).join(' ');
  const examples = Object.fromEntries(
    codes.map((code) => [code, { summary: ERROR_CATALOGUE[code].description, value: { code, message: ERROR_CATALOGUE[code].example, status } }]),
  );
  return { status, description, headers: ERROR_HEADERS[status], content: { 'application/json': { schema: schemaRef('Error'), examples } } };
}

/**
 * Error statuses that every operation can answer, whatever it does: the key check and faults of the
 * service. A layer that applies to every operation (scopes, rate limits) adds its status here.
 */
const COMMON_ERROR_STATUSES: readonly number[] = [401, 429, 500, 503];

/** Documents the Error body for the common statuses and the given ones. */
export function ApiErrorResponses(...statuses: number[]) {
  return errorResponses([...COMMON_ERROR_STATUSES, ...statuses]);
}

/** For operations marked @Public(): no key check and no per-key rate limit, so only faults and the given statuses. */
export function ApiPublicErrorResponses(...statuses: number[]) {
  return errorResponses([500, ...statuses]);
}

function errorResponses(statuses: number[]) {
  const all = [...new Set(statuses)].sort((a, b) => a - b);
  return applyDecorators(...all.map((status) => ApiResponse(errorResponse(status))));
}
