import { ErrorCode, FieldError } from '@petstore/contracts';

/** A failure the service means to report: its code alone decides the HTTP status. */
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

/** The problems of a request, at most 20 and under 4 KiB of body; its message is theirs joined by `; `. */
export class ValidationFailedError extends DomainError {
  constructor(details: FieldError[]) {
    const kept: FieldError[] = [];
    let bytes = 68; // {"code":"validation_failed","message":"","status":400,"details":[]}
    for (const detail of details.slice(0, 20)) {
      // Each problem is written twice: as a detail, and in the message.
      bytes += Buffer.byteLength(JSON.stringify(detail)) + Buffer.byteLength(JSON.stringify(detail.message)) + 1;
      if (bytes > 4000) break;
      kept.push(detail);
    }
    super('validation_failed', kept.map((d) => d.message).join('; '), kept);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(
    message: string,
    // RFC 6750 §3: a refused token is error="invalid_token"; error_description only for a key we know.
    readonly tokenPresented: boolean,
    readonly description?: string,
  ) {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(
    message: string,
    /** RFC 6750 §3.1: error="insufficient_scope". */
    readonly missingScopes: string[] = [],
  ) {
    super('forbidden', message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    reason = 'Too many requests',
  ) {
    super('rate_limited', `${reason}: retry after ${retryAfterSeconds} seconds`);
  }
}
