import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS, ErrorCode, FieldError } from '@petstore/contracts';

/** A reference to one of the schema components of @petstore/contracts. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type HeaderObjects = Record<string, { description: string; required: boolean; schema: { type: 'string' | 'integer' } }>;

/** HTTP headers that always come with an error status; what each status means comes from ERROR_CATALOGUE. */
const ERROR_HEADERS: Record<number, HeaderObjects> = {
  401: {
    'WWW-Authenticate': {
      description:
        '`Bearer` when no key was sent; `Bearer error="invalid_token"` when one was refused, with `error_description="The access token expired"` or `"The access token was revoked"` when the key exists but expired or was revoked (RFC 6750).',
      required: true,
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer' } } },
};

/**
 * The answers one operation can give with a code: the code alone (the catalogue's example message),
 * or the messages it sends with it (for `validation_failed`, the offending field and its message).
 */
export type ErrorAnswers = Partial<Record<ErrorCode, ReadonlyArray<string | FieldError> | true>>;

/**
 * Codes no operation documents: the HTTP parser refuses the request (`malformed_request`,
 * `headers_too_large`) or no operation matches it (`method_not_allowed`), before any operation is chosen.
 * The document's description says so once.
 */
const NOT_PER_OPERATION: readonly ErrorCode[] = ['malformed_request', 'headers_too_large', 'method_not_allowed'];

function example(code: ErrorCode, answer: string | FieldError | undefined) {
  const status = ERROR_STATUS[code];
  if (answer === undefined) return { summary: ERROR_CATALOGUE[code].description, value: { code, message: ERROR_CATALOGUE[code].example, status } };
  if (typeof answer === 'string') return { summary: answer, value: { code, message: answer, status } };
  return { summary: answer.message, value: { code, message: answer.message, status, details: [answer] } };
}

/** One error status: its codes described, with an example body for each answer. */
function errorResponse(status: number, answers: ErrorAnswers) {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status && answers[code]);
  const description = codes.map((code) => `${ERROR_CATALOGUE[code].description} (code \`${code}\`).`).join(' ');
  const examples = Object.fromEntries(
    codes.flatMap((code) => {
      const given = answers[code];
      const list = given === true || given === undefined ? [undefined] : given;
      return list.map((answer, i) => [i === 0 ? code : `${code}_${i + 1}`, example(code, answer)]);
    }),
  );
  return { status, description, headers: ERROR_HEADERS[status], content: { 'application/json': { schema: schemaRef('Error'), examples } } };
}

/** Every code of these statuses that an operation can answer, with the catalogue's example. */
function codesOf(statuses: number[]): ErrorAnswers {
  const codes = ERROR_CODES.filter((code) => statuses.includes(ERROR_STATUS[code]) && !NOT_PER_OPERATION.includes(code));
  if (codes.length === 0) throw new Error(`No error code has status ${statuses.join(', ')} in ERROR_CATALOGUE (@petstore/contracts)`);
  return Object.fromEntries(codes.map((code) => [code, true]));
}

/**
 * Error codes that every operation can answer, whatever it does: the key check and faults of the
 * service. A layer that applies to every operation (scopes, rate limits) adds its codes here.
 */
const COMMON_ERRORS: ErrorAnswers = { unauthorized: true, rate_limited: true, internal_error: true, service_unavailable: true };

/**
 * Documents the Error body for the common codes and the given ones: a status (each of its codes, with
 * the catalogue's example) or the answers themselves, which is how an operation shows only what it can say.
 */
export function ApiErrorResponses(...given: (number | ErrorAnswers)[]) {
  return errorResponses(COMMON_ERRORS, ...given);
}

/** For operations marked @Public(): no key check and no per-key rate limit, so only faults and the given statuses. */
export function ApiPublicErrorResponses(...given: (number | ErrorAnswers)[]) {
  return errorResponses({ internal_error: true }, ...given);
}

/** The 403 of an operation that needs these scopes, with the message the scope guard sends. */
export function ApiForbiddenResponse(scopes: readonly string[]) {
  const names = scopes.map((s) => `\`${s}\``).join(', ');
  const message = `This API key lacks the ${scopes.join(', ')} scope that this operation needs`;
  return ApiResponse({
    ...errorResponse(403, { forbidden: [message] }),
    description: `The API key lacks the ${names} scope this operation needs (code \`forbidden\`).`,
  });
}

function errorResponses(...given: (number | ErrorAnswers)[]) {
  const answers = given.reduce<ErrorAnswers>((all, g) => ({ ...all, ...(typeof g === 'number' ? codesOf([g]) : g) }), {});
  const statuses = [...new Set(Object.keys(answers).map((code) => ERROR_STATUS[code as ErrorCode]))].sort((a, b) => a - b);
  return applyDecorators(...statuses.map((status) => ApiResponse(errorResponse(status, answers))));
}
