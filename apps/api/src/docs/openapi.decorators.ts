import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** A reference to one of the schema components of @petstore/contracts. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request holds an invalid value (code `validation_failed` or `malformed_json`).',
  401: 'Missing or invalid API key (code `unauthorized`).',
  403: 'The API key lacks the scope this operation needs (code `forbidden`).',
  404: 'The animal cannot be found (code `not_found`).',
  409: 'A request with the same `Idempotency-Key` is still being processed (code `request_in_progress`).',
  413: 'The request body is larger than 64 KiB (code `payload_too_large`).',
  415: 'The request body is not `application/json` (code `unsupported_media_type`).',
  422: 'The `Idempotency-Key` was already used with a different body (code `idempotency_key_reused`).',
  429: 'Too many requests for this API key (code `rate_limited`).',
  500: 'A fault of the service (code `internal_error`).',
  501: 'The operation is not implemented yet (code `not_implemented`).',
  503: 'The database cannot be reached (code `service_unavailable`).',
};

/** Documents the Error body for each of the given statuses. */
export function ApiErrorResponses(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: schemaRef('Error') } } }),
    ),
  );
}
