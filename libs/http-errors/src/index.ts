export { DomainError, ForbiddenError, RateLimitedError, UnauthorizedError, ValidationFailedError } from './domain-error';
export { isDatabaseUnavailable } from './database-errors';
export { mapError } from './error-mapping';
export { redactKeys } from './redact-keys';
export { GlobalExceptionFilter, frameworkErrorHandler, sendError } from './global-exception.filter';
export type { ErrorLogger } from './global-exception.filter';
export { MAX_PARAM_LENGTH, RouteTable } from './route-table';
export { ContractValidationPipe } from './validation.pipe';
