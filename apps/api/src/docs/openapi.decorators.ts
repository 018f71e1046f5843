import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS, ErrorCode, FieldError } from '@petstore/contracts';

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** What an operation answers with a code: `true` for the catalogue's example, or the messages (or field errors) it sends. */
export type ErrorAnswers = Partial<Record<ErrorCode, ReadonlyArray<string | FieldError> | true>>;

const ERROR_HEADERS: Record<number, Record<string, { description: string; required: boolean; schema: { type: 'string' | 'integer' } }>> = {
  401: {
    'WWW-Authenticate': {
      description:
        '`Bearer` when no key was sent; `Bearer error="invalid_token"` when one was refused, with `error_description="The access token expired"` or `"The access token was revoked"` when the key exists but expired or was revoked (RFC 6750).',
      required: true,
      schema: { type: 'string' },
    },
  },
  403: {
    'WWW-Authenticate': {
      description: '`Bearer error="insufficient_scope", scope="…"`, naming the scopes the key lacks (RFC 6750).',
      required: true,
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer' } } },
};

// Refused before any operation is chosen, so no operation lists them; the document's description says so once.
const NOT_PER_OPERATION: readonly ErrorCode[] = ['malformed_request', 'headers_too_large', 'method_not_allowed'];

function example(code: ErrorCode, answer?: string | FieldError) {
  const message = answer === undefined ? ERROR_CATALOGUE[code].example : typeof answer === 'string' ? answer : answer.message;
  const value = { code, message, status: ERROR_STATUS[code], ...(typeof answer === 'object' && { details: [answer] }) };
  return { summary: answer === undefined ? ERROR_CATALOGUE[code].description : message, value };
}

function errorResponse(status: number, answers: ErrorAnswers) {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status && answers[code]);
  const examples = codes.flatMap((code) => {
    const given = answers[code];
    return (typeof given === 'object' ? given : [undefined]).map((answer, i) => [i ? `${code}_${i + 1}` : code, example(code, answer)] as const);
  });
  return {
    status,
    description: codes.map((code) => `${ERROR_CATALOGUE[code].description} (code \`${code}\`).`).join(' '),
    headers: ERROR_HEADERS[status],
    content: { 'application/json': { schema: schemaRef('Error'), examples: Object.fromEntries(examples) } },
  };
}

function errorResponses(...given: (number | ErrorAnswers)[]) {
  const ofStatus = (status: number) => ERROR_CODES.filter((code) => ERROR_STATUS[code] === status && !NOT_PER_OPERATION.includes(code));
  const answers: ErrorAnswers = {};
  for (const g of given) Object.assign(answers, typeof g === 'number' ? Object.fromEntries(ofStatus(g).map((code) => [code, true])) : g);
  const statuses = [...new Set(Object.keys(answers).map((code) => ERROR_STATUS[code as ErrorCode]))].sort((a, b) => a - b);
  return applyDecorators(...statuses.map((status) => ApiResponse(errorResponse(status, answers))));
}

/** The Error body for the codes every operation can answer (the key check, faults) and the given statuses or answers. */
export const ApiErrorResponses = (...given: (number | ErrorAnswers)[]) =>
  errorResponses({ unauthorized: true, rate_limited: true, internal_error: true, service_unavailable: true }, ...given);

/** For @Public() operations: no key check, no per-key rate limit. */
export const ApiPublicErrorResponses = (...given: (number | ErrorAnswers)[]) => errorResponses({ internal_error: true }, ...given);

/** The 403 of an operation that needs these scopes, with the message the scope guard sends. */
export function ApiForbiddenResponse(scopes: readonly string[]) {
  const message = `This API key lacks the ${scopes.join(', ')} scope that this operation needs`;
  return ApiResponse({
    ...errorResponse(403, { forbidden: [message] }),
    description: `The API key lacks the ${scopes.map((s) => `\`${s}\``).join(', ')} scope this operation needs (code \`forbidden\`).`,
  });
}
