export { DomainError, ForbiddenError, RateLimitedError, UnauthorizedError, ValidationFailedError } from './domain-error';
export type { ErrorLogger } from './error-logger';
export { codeForStatus, isDatabaseUnavailable, mapError } from './error-mapping';
export type { MappedError, RequestLine } from './error-mapping';
export { GlobalExceptionFilter, frameworkErrorHandler, sendError } from './global-exception.filter';
export { RouteTable } from './route-table';
