import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** A reference to one of the schema components of @petstore/contracts. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type HeaderObjects = Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;

interface ErrorResponse {
  description: string;
  headers?: HeaderObjects;
}

/** Every error status the service can answer, with the headers that come with it. */
const ERROR_RESPONSES: Record<number, ErrorResponse> = {
  400: { description: 'The request holds an invalid value (code `validation_failed` or `malformed_json`).' },
  401: {
    description: 'Missing or invalid API key (code `unauthorized`).',
    headers: { 'WWW-Authenticate': { description: 'Always `Bearer` (RFC 6750).', schema: { type: 'string' } } },
  },
  403: { description: 'The API key lacks the scope this operation needs (code `forbidden`).' },
  404: { description: 'The animal cannot be found (code `not_found`).' },
  409: { description: 'A request with the same `Idempotency-Key` is still being processed (code `request_in_progress`).' },
  413: { description: 'The request body is larger than 64 KiB (code `payload_too_large`).' },
  415: { description: 'The request body is not `application/json` (code `unsupported_media_type`).' },
  422: { description: 'The `Idempotency-Key` was already used with a different body (code `idempotency_key_reused`).' },
  429: {
    description: 'Too many requests for this API key (code `rate_limited`).',
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
  },
  500: { description: 'A fault of the service (code `internal_error`); the details are only in its log.' },
  501: { description: 'The operation is not implemented yet (code `not_implemented`).' },
  503: { description: 'The database cannot be reached (code `service_unavailable`).' },
};

/**
 * Error statuses that every operation can answer, whatever it does: the key check and faults of the
 * service. A layer that applies to every operation (scopes, rate limits) adds its status here.
 */
export const COMMON_ERROR_STATUSES: readonly number[] = [401, 429, 500, 503];

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
  return applyDecorators(
    ...all.map((status) => {
      const response = ERROR_RESPONSES[status];
      if (!response) throw new Error(`No description of error status ${status} in openapi.decorators.ts`);
      return ApiResponse({ status, ...response, content: { 'application/json': { schema: schemaRef('Error') } } });
    }),
  );
}
