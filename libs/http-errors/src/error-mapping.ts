import { HttpException } from '@nestjs/common';
import { ApiError, ERROR_CODES, ERROR_STATUS, ErrorCode, apiError } from '@petstore/contracts';
import { isDatabaseUnavailable, isOutOfSpace } from './database-errors';
import { DomainError, ForbiddenError, RateLimitedError, UnauthorizedError } from './domain-error';
import { redactKeys } from './redact-keys';
import { RouteTable } from './route-table';

export interface MappedError {
  body: ApiError;
  headers: Record<string, string>;
  /** A fault of ours: log it with its stack, never send it. */
  unexpected: boolean;
}

const INTERNAL: MappedError = { body: apiError('internal_error', 'An unexpected error occurred; it has been logged'), headers: {}, unexpected: true };
const answer = (code: ErrorCode, message: string, headers: Record<string, string> = {}): MappedError => ({
  body: apiError(code, message),
  headers,
  unexpected: false,
});

/** Fastify's errors that say what the client did wrong, with the message sent instead of Fastify's. */
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

/** Maps any thrown value to the Error body and the headers that go with it. Pure: no I/O. */
export function mapError(exception: unknown, request: { method: string; url: string }, routes?: RouteTable): MappedError {
  if (exception instanceof DomainError) return fromDomainError(exception);
  if (isDatabaseUnavailable(exception)) return answer('service_unavailable', 'The service cannot reach its database; try again shortly');
  if (isOutOfSpace(exception)) return answer('service_unavailable', "The database's disk is full; try again later");
  if (exception instanceof HttpException) return fromHttpException(exception, request, routes);
  const { code, statusCode, message } = (exception ?? {}) as { code?: unknown; statusCode?: number; message?: string };
  if (typeof code !== 'string' || !code.startsWith('FST_')) return INTERNAL;
  return FASTIFY_CODES[code] ? answer(...FASTIFY_CODES[code]) : fromStatus(statusCode ?? 500, String(message));
}

function fromDomainError(error: DomainError): MappedError {
  const headers: Record<string, string> = {};
  if (error instanceof UnauthorizedError) {
    const description = error.description ? `, error_description="${error.description.replace(/["\\]/g, '')}"` : '';
    headers['www-authenticate'] = error.tokenPresented ? `Bearer error="invalid_token"${description}` : 'Bearer';
  }
  if (error instanceof ForbiddenError && error.missingScopes.length > 0) {
    headers['www-authenticate'] = `Bearer error="insufficient_scope", scope="${error.missingScopes.join(' ')}"`;
  }
  if (error instanceof RateLimitedError) headers['retry-after'] = String(error.retryAfterSeconds);
  return { body: apiError(error.code, error.message, error.details), headers, unexpected: error.code === 'internal_error' };
}

/** A 404 of the router becomes 405 with Allow when the path exists for other methods. */
function fromHttpException(exception: HttpException, request: { method: string; url: string }, routes?: RouteTable): MappedError {
  const allowed = exception.getStatus() === 404 && routes ? routes.allowedMethods(request.url) : undefined;
  const method = request.method.toUpperCase();
  const path = redactKeys(request.url.split('?')[0]);
  const echoed = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  if (allowed?.length === 0) return answer('not_found', `No route matches ${method} ${echoed}`);
  if (allowed && !allowed.includes(method)) {
    return answer('method_not_allowed', `${method} is not allowed on ${echoed}; allowed: ${allowed.join(', ')}`, { allow: allowed.join(', ') });
  }
  const response = exception.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  return fromStatus(exception.getStatus(), Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message);
}

function fromStatus(status: number, message: string): MappedError {
  const code = codeForStatus(status);
  if (code === 'internal_error') return INTERNAL;
  return answer(code, message, code === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {});
}

/** The code a bare HTTP status stands for (the catalogue's first with that status); others become internal_error. */
export function codeForStatus(status: number): ErrorCode {
  return ERROR_CODES.find((code) => ERROR_STATUS[code] === status) ?? 'internal_error';
}
