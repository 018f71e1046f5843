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

/** A 400 lists at most this many problems, and its body stays under 4 KiB, however many the request has. */
const MAX_DETAILS = 20;
const MAX_BODY_BYTES = 4000;
/** {"code":"validation_failed","message":"","status":400,"details":[]} */
const BODY_FRAME_BYTES = 68;

/** The problems of a request, its message the problems' messages joined by `; `, in the order given. */
export class ValidationFailedError extends DomainError {
  constructor(details: FieldError[]) {
    const kept: FieldError[] = [];
    let bytes = BODY_FRAME_BYTES;
    for (const detail of details.slice(0, MAX_DETAILS)) {
      // Each problem is written twice: as a detail, and in the message.
      bytes += Buffer.byteLength(JSON.stringify(detail)) + Buffer.byteLength(JSON.stringify(detail.message)) + 1;
      if (bytes > MAX_BODY_BYTES) break;
      kept.push(detail);
    }
    super('validation_failed', kept.map((d) => d.message).join('; '), kept);
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
