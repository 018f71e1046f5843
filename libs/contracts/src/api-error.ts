import { IsArray, IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The stable, documented set of machine-readable error codes. */
export const ErrorCode = {
  ValidationFailed: 'validation_failed',
  MalformedJson: 'malformed_json',
  MalformedRequest: 'malformed_request',
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  RequestInProgress: 'request_in_progress',
  RequestTimeout: 'request_timeout',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
  IdempotencyKeyReused: 'idempotency_key_reused',
  RateLimited: 'rate_limited',
  HeadersTooLarge: 'headers_too_large',
  InternalError: 'internal_error',
  NotImplemented: 'not_implemented',
  ServiceUnavailable: 'service_unavailable',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** What one error code means: the HTTP status it is always sent with, and when it is sent. */
export interface ErrorDescription {
  status: number;
  /** When the code is sent, for a person reading the API's documentation. */
  description: string;
  /** A message the service sends with it, as an example. */
  example: string;
}

/**
 * The error catalogue: every code, its status and its meaning, written once. The Error bodies, the
 * mapping of framework errors to codes and the OpenAPI responses all read it. Within a status, the
 * first code listed is the one a bare status of that value stands for.
 */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, ErrorDescription>> = {
  validation_failed: { status: 400, description: 'The request holds an invalid value', example: 'name must not be blank' },
  malformed_json: { status: 400, description: 'The request body is not valid JSON', example: 'The request body is not valid JSON' },
  malformed_request: {
    status: 400,
    description: 'The request is not valid HTTP/1.1 (an unknown method, bad header bytes, conflicting framing)',
    example: 'The request is not valid HTTP/1.1',
  },
  unauthorized: { status: 401, description: 'Missing or invalid API key', example: 'An API key is required: send "Authorization: Bearer <API key>"' },
  forbidden: {
    status: 403,
    description: 'The API key lacks the scope this operation needs',
    example: 'This API key lacks the pets:write scope that this operation needs',
  },
  not_found: { status: 404, description: 'The animal cannot be found', example: 'No pet with id 42' },
  method_not_allowed: {
    status: 405,
    description: 'The path exists, but not with this method',
    example: 'DELETE is not allowed on /v1/pets; allowed: GET, HEAD, POST',
  },
  request_in_progress: {
    status: 409,
    description: 'A request with the same `Idempotency-Key` is still being processed',
    example: 'A request with this Idempotency-Key is still being processed; retry later',
  },
  request_timeout: {
    status: 408,
    description: 'The whole request did not arrive within the time allowed (`REQUEST_TIMEOUT_MS`)',
    example: 'The request did not arrive within 10 s',
  },
  payload_too_large: { status: 413, description: 'The request body is larger than 64 KiB', example: 'The request body is larger than the limit' },
  unsupported_media_type: {
    status: 415,
    description: 'The request body is not `application/json`',
    example: 'The request body must be application/json',
  },
  idempotency_key_reused: {
    status: 422,
    description: 'The `Idempotency-Key` was already used with a different body',
    example: 'This Idempotency-Key was already used with a different request body',
  },
  rate_limited: { status: 429, description: 'Too many requests for this API key', example: 'Too many requests: retry after 12 seconds' },
  headers_too_large: {
    status: 431,
    description: 'The request headers are larger than 16 KiB',
    example: 'The request headers are larger than 16 KiB',
  },
  internal_error: {
    status: 500,
    description: 'A fault of the service; the details are only in its log',
    example: 'An unexpected error occurred; it has been logged',
  },
  not_implemented: {
    status: 501,
    description: 'The operation is not implemented yet',
    example: 'GET /v1/store/orders is not implemented yet: its behaviour is not specified',
  },
  service_unavailable: {
    status: 503,
    description: 'The database cannot be reached',
    example: 'The service cannot reach its database; try again shortly',
  },
};

/** The HTTP status each code is always sent with. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code, status]),
) as Record<ErrorCode, number>;

export const ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCode);

/** One offending field of a request that failed validation. */
export interface FieldError {
  field: string;
  message: string;
}

/** The Error body every error response carries. */
@JSONSchema({ description: 'The body of every error response.' })
export class ApiError {
  @JSONSchema({ description: 'Machine-readable error code.' })
  @IsIn(ERROR_CODES)
  code!: ErrorCode;

  @JSONSchema({ description: 'Human-readable description naming the offending field or parameter.' })
  @IsString()
  message!: string;

  @JSONSchema({ description: 'The HTTP status code.' })
  @IsInt()
  status!: number;

  @JSONSchema({
    description: 'For validation failures: one entry per offending field.',
    items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
  })
  @IsOptional()
  @IsArray()
  details?: FieldError[];
}

export function apiError(code: ErrorCode, message: string, details?: FieldError[]): ApiError {
  const body: ApiError = { code, message, status: ERROR_STATUS[code] };
  if (details && details.length > 0) body.details = details;
  return body;
}
