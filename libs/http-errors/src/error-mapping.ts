import { HttpException } from '@nestjs/common';
import { ApiError, ERROR_CODES, ERROR_STATUS, ErrorCode, apiError } from '@petstore/contracts';
import { DomainError, ForbiddenError, RateLimitedError, UnauthorizedError } from './domain-error';
import { RouteTable } from './route-table';

export interface MappedError {
  body: ApiError;
  headers: Record<string, string>;
  /** A fault of ours (5xx other than 501/503): log it with its stack, never send it. */
  unexpected: boolean;
}

export interface RequestLine {
  method: string;
  url: string;
}

const INTERNAL_MESSAGE = 'An unexpected error occurred; it has been logged';
const UNAVAILABLE_MESSAGE = 'The service cannot reach its database; try again shortly';
export const OUT_OF_SPACE_MESSAGE = "The database's disk is full; try again later";

/** Maps any thrown value to the Error body and the headers that go with it. Pure: no I/O. */
export function mapError(exception: unknown, request: RequestLine, routes?: RouteTable): MappedError {
  if (exception instanceof DomainError) return fromDomainError(exception);
  if (isDatabaseUnavailable(exception)) return result(apiError('service_unavailable', UNAVAILABLE_MESSAGE), {}, false);
  if (isOutOfSpace(exception)) return result(apiError('service_unavailable', OUT_OF_SPACE_MESSAGE), {}, false);
  if (exception instanceof HttpException) return fromHttpException(exception, request, routes);
  const fastifyError = asFastifyError(exception);
  if (fastifyError) return fromFastifyError(fastifyError);
  return result(apiError('internal_error', INTERNAL_MESSAGE), {}, true);
}

function result(body: ApiError, headers: Record<string, string>, unexpected: boolean): MappedError {
  return { body, headers, unexpected };
}

function fromDomainError(error: DomainError): MappedError {
  const headers: Record<string, string> = {};
  if (error instanceof UnauthorizedError) {
    headers['www-authenticate'] = !error.tokenPresented
      ? 'Bearer'
      : `Bearer error="invalid_token"${error.description ? `, error_description="${error.description.replace(/["\\]/g, '')}"` : ''}`;
  }
  if (error instanceof ForbiddenError && error.missingScopes.length > 0) {
    headers['www-authenticate'] = `Bearer error="insufficient_scope", scope="${error.missingScopes.join(' ')}"`;
  }
  if (error instanceof RateLimitedError) headers['retry-after'] = String(error.retryAfterSeconds);
  return result(apiError(error.code, error.message, error.details), headers, error.code === 'internal_error');
}

function fromHttpException(exception: HttpException, request: RequestLine, routes?: RouteTable): MappedError {
  const status = exception.getStatus();
  if (status === 404 && routes) {
    const allowed = routes.allowedMethods(request.url);
    if (allowed.length === 0) return result(apiError('not_found', `No route matches ${describe(request)}`), {}, false);
    if (!allowed.includes(request.method.toUpperCase())) {
      return result(
        apiError('method_not_allowed', `${request.method.toUpperCase()} is not allowed on ${pathOf(request)}; allowed: ${allowed.join(', ')}`),
        { allow: allowed.join(', ') },
        false,
      );
    }
  }
  const code = codeForStatus(status);
  const headers: Record<string, string> = code === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {};
  if (code === 'internal_error') return result(apiError(code, INTERNAL_MESSAGE), headers, true);
  return result(apiError(code, messageOf(exception)), headers, false);
}

interface FastifyLikeError {
  code: string;
  statusCode?: number;
  message: string;
}

function asFastifyError(exception: unknown): FastifyLikeError | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { code } = exception as { code?: unknown };
  return typeof code === 'string' && code.startsWith('FST_') ? (exception as FastifyLikeError) : undefined;
}

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'The request body must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is larger than the limit'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['validation_failed', 'The Content-Length header does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['validation_failed', 'The request body is required'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['malformed_json', 'The request body is not valid JSON'],
  FST_ERR_BAD_URL: ['validation_failed', 'The request path is not a valid URL'],
  FST_ERR_ASYNC_CONSTRAINT: ['validation_failed', 'The request could not be routed'],
  FST_ERR_MAX_PARAM_LENGTH: ['validation_failed', 'A path parameter is too long'],
};

function fromFastifyError(error: FastifyLikeError): MappedError {
  const known = FASTIFY_CODES[error.code];
  if (known) return result(apiError(known[0], known[1]), {}, false);
  const status = error.statusCode ?? 500;
  const code = codeForStatus(status);
  return result(apiError(code, code === 'internal_error' ? INTERNAL_MESSAGE : error.message), {}, code === 'internal_error');
}

/** The code a bare HTTP status stands for (the catalogue's first with that status); others become internal_error. */
export function codeForStatus(status: number): ErrorCode {
  return CODE_FOR_STATUS.get(status) ?? 'internal_error';
}

const CODE_FOR_STATUS = new Map<number, ErrorCode>();
for (const code of ERROR_CODES) if (!CODE_FOR_STATUS.has(ERROR_STATUS[code])) CODE_FOR_STATUS.set(ERROR_STATUS[code], code);

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

const MAX_ECHOED_PATH = 200;

function pathOf(request: RequestLine): string {
  const path = request.url.split('?')[0];
  return path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
}

function describe(request: RequestLine): string {
  return `${request.method.toUpperCase()} ${pathOf(request)}`;
}

const UNAVAILABLE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection is not established',
  'canceling statement due to statement timeout',
  'terminating connection',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
];

/**
 * SQLSTATEs that say the database will not serve this service now, whatever the request: a failure to
 * connect or to be served. One row per condition; `message`, when given, must match too (55000 is a
 * class of its own that other conditions share).
 */
export const UNAVAILABLE_SQLSTATES: readonly { code: string; meaning: string; message?: RegExp }[] = [
  { code: '55000', meaning: 'the database does not allow connections', message: /not currently accepting connections/ },
  { code: '3D000', meaning: 'the database does not exist' },
  { code: '28000', meaning: 'the role may not connect' },
  { code: '28P01', meaning: 'the password is refused' },
  { code: '53300', meaning: 'too many connections' },
  { code: '57P01', meaning: 'shut down by an administrator' },
  { code: '57P02', meaning: 'crash shutdown' },
  { code: '57P03', meaning: 'the server cannot accept connections now' },
  { code: '57014', meaning: 'statement timeout' },
];

/** The error and the errors it wraps (TypeORM's `driverError`, `cause`), a few levels deep. */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    yield current;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
}

/**
 * True when the error says the database cannot be reached or did not answer in time: network
 * errors, pg pool and client timeouts, PostgreSQL's connection-exception class (08) and the
 * UNAVAILABLE_SQLSTATES.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return [...causes(error)].some(({ code, message }) => {
    const text = typeof message === 'string' ? message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => text.includes(m))) return true;
    if (typeof code !== 'string') return false;
    if (UNAVAILABLE_NETWORK_CODES.has(code) || code.startsWith('08')) return true;
    return UNAVAILABLE_SQLSTATES.some((row) => row.code === code && (!row.message || row.message.test(text)));
  });
}

/**
 * True when the database ran out of disk space: PostgreSQL's disk_full (53100), or ENOSPC from the
 * file system. An operating condition, not a fault of ours: a 503 until space returns.
 */
export function isOutOfSpace(error: unknown): boolean {
  return [...causes(error)].some(({ code }) => code === '53100' || code === 'ENOSPC');
}
