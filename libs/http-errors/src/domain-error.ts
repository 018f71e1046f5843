import { ErrorCode, FieldError } from '@petstore/contracts';

/**
 * A failure the service means to report. It carries a stable code from the contract and a message
 * for a person; which HTTP status it becomes is decided by the code alone, in one place (the filter).
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  constructor(details: FieldError[]) {
    super('validation_failed', details.map((d) => d.message).join('; '), details);
  }
}

/** Missing, malformed, unknown, expired or revoked credentials. */
export class UnauthorizedError extends DomainError {
  constructor(
    message: string,
    /** A token was presented but refused (RFC 6750 §3: error="invalid_token"). */
    readonly tokenPresented: boolean,
    /** Why a token the service knows was refused (RFC 6750 §3: error_description); never for an unknown one. */
    readonly description?: string,
  ) {
    super('unauthorized', message);
  }
}

/** Valid credentials that lack the scope the operation needs. */
export class ForbiddenError extends DomainError {
  constructor(
    message: string,
    /** The bearer scopes missing (RFC 6750 §3.1: error="insufficient_scope"), when that is the reason. */
    readonly missingScopes: string[] = [],
  ) {
    super('forbidden', message);
  }
}

/** Too many requests; the client may retry after the given number of seconds. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    reason = 'Too many requests',
  ) {
    super('rate_limited', `${reason}: retry after ${retryAfterSeconds} seconds`);
  }
}
