export { DomainError, ForbiddenError, RateLimitedError, UnauthorizedError, ValidationFailedError } from './domain-error';
export type { ErrorLogger } from './error-logger';
export { OUT_OF_SPACE_MESSAGE, isDatabaseUnavailable, mapError } from './error-mapping';
export { GlobalExceptionFilter, frameworkErrorHandler, sendError } from './global-exception.filter';
export { MAX_PARAM_LENGTH, RouteTable } from './route-table';
export { ContractValidationPipe, validationFailed } from './validation.pipe';
