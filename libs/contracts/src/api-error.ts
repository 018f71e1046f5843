import { IsArray, IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

export interface ErrorDescription {
  status: number;
  description: string;
  example: string;
}

/** The error catalogue, one row per code: status, when it is sent, an example message. */
// Within a status, the first code is the one a bare status stands for.
const TABLE = {
  validation_failed: [400, 'The request holds an invalid value', 'name must not be blank'],
  malformed_json: [400, 'The request body is not valid JSON', 'The request body is not valid JSON'],
  malformed_request: [
    400,
    'The request is not valid HTTP/1.1 (an unknown method, bad header bytes, conflicting framing)',
    'The request is not valid HTTP/1.1',
  ],
  unauthorized: [401, 'Missing or invalid API key', 'An API key is required: send "Authorization: Bearer <API key>"'],
  forbidden: [403, 'The API key lacks the scope this operation needs', 'This API key lacks the pets:write scope that this operation needs'],
  not_found: [404, 'The animal cannot be found', 'No pet with id 42'],
  method_not_allowed: [405, 'The path exists, but not with this method', 'DELETE is not allowed on /v1/pets; allowed: GET, HEAD, POST'],
  request_in_progress: [
    409,
    'A request with the same `Idempotency-Key` is still being processed',
    'A request with this Idempotency-Key is still being processed; retry later',
  ],
  request_timeout: [408, 'The whole request did not arrive within the time allowed (`REQUEST_TIMEOUT_MS`)', 'The request did not arrive within 10 s'],
  payload_too_large: [413, 'The request body is larger than 64 KiB', 'The request body is larger than the limit'],
  unsupported_media_type: [
    415,
    'The request body is not `application/json` in UTF-8, or it is encoded (`Content-Encoding`)',
    'The request body must be application/json',
  ],
  idempotency_key_reused: [
    422,
    'The `Idempotency-Key` was already used with a different body',
    'This Idempotency-Key was already used with a different request body',
  ],
  rate_limited: [429, 'Too many requests for this API key', 'Too many requests: retry after 12 seconds'],
  headers_too_large: [431, 'The request headers are larger than 16 KiB', 'The request headers are larger than 16 KiB'],
  internal_error: [500, 'A fault of the service; the details are only in its log', 'An unexpected error occurred; it has been logged'],
  not_implemented: [501, 'The operation is not implemented yet', 'GET /v1/store/orders is not implemented yet: its behaviour is not specified'],
  service_unavailable: [503, 'The database cannot be reached', 'The service cannot reach its database; try again shortly'],
} as const satisfies Record<string, readonly [number, string, string]>;

export type ErrorCode = keyof typeof TABLE;
export const ERROR_CODES = Object.keys(TABLE) as ErrorCode[];
export const ERROR_CATALOGUE = Object.fromEntries(
  Object.entries(TABLE).map(([code, [status, description, example]]) => [code, { status, description, example }]),
) as Readonly<Record<ErrorCode, ErrorDescription>>;

type Pascal<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;
/** The codes by name (`ErrorCode.NotFound`), for clients. */
export const ErrorCode = Object.fromEntries(
  Object.keys(ERROR_CATALOGUE).map((code) => [code.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase()), code]),
) as { readonly [C in ErrorCode as Pascal<C>]: C };

export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_CATALOGUE[code].status])) as Record<ErrorCode, number>;

export interface FieldError {
  field: string;
  message: string;
}

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
  return { code, message, status: ERROR_STATUS[code], ...(details?.length ? { details } : {}) };
}
