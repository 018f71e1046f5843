import { IsArray, IsIn, IsInt, IsOptional, IsString } from 'class-validator';

/** The stable, documented set of machine-readable error codes. */
export const ErrorCode = {
  ValidationFailed: 'validation_failed',
  MalformedJson: 'malformed_json',
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  RequestInProgress: 'request_in_progress',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
  IdempotencyKeyReused: 'idempotency_key_reused',
  RateLimited: 'rate_limited',
  InternalError: 'internal_error',
  NotImplemented: 'not_implemented',
  ServiceUnavailable: 'service_unavailable',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The HTTP status each code is always sent with. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  validation_failed: 400,
  malformed_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
};

export const ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCode);

/** One offending field of a request that failed validation. */
export interface FieldError {
  field: string;
  message: string;
}

/** The Error body every error response carries. */
export class ApiError {
  @IsIn(ERROR_CODES)
  code!: ErrorCode;

  @IsString()
  message!: string;

  @IsInt()
  status!: number;

  @IsOptional()
  @IsArray()
  details?: FieldError[];
}

export function apiError(code: ErrorCode, message: string, details?: FieldError[]): ApiError {
  const body: ApiError = { code, message, status: ERROR_STATUS[code] };
  if (details && details.length > 0) body.details = details;
  return body;
}
