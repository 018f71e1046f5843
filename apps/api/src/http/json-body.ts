import { DomainError, RateLimitedError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RejectedBody, UnparsedJson } from './json-body-values';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * What the body reader asks before it reads a byte: the seconds the request's address must still wait
 * for failed authentications (0: none; a key that passes a refused address anyway gets 0).
 */
export interface BodyGate {
  retryAfterSeconds(request: FastifyRequest): number;
}

const TAKES_BODY = Symbol('takesBody');
const MEDIA_TYPE_PROBLEM = Symbol('mediaTypeProblem');
type BodyRequest = FastifyRequest & { [TAKES_BODY]?: true; [MEDIA_TYPE_PROBLEM]?: DomainError };

/** The syntax of `Authorization: Bearer <token>` (RFC 6750 §2.1); whether the key is valid is the guard's. */
const BEARER = /^bearer +[A-Za-z0-9\-._~+/]+=*$/i;

/** A Content-Type Fastify accepts, standing in for one it would refuse (415) before any guard. */
const STAND_IN_TYPE = 'application/x-refused';

/**
 * Replaces Fastify's body parsers with one that reads JSON only, and only where it may be taken: on a
 * route that takes a body, from a request with a Bearer header, from an address not refused, with
 * the JSON media type, up to 64 KiB. Anything else is not read at all: the route answers (401, 429,
 * 405, 415, 413, in the order of the guards) and the answer closes the connection (unread-bodies.ts).
 * What is read is parsed only after the guards (JsonBody), so an unauthenticated client costs no parse.
 */
export function installJsonBodyParser(fastify: FastifyInstance, gate: BodyGate): void {
  // Only routes that take a body mark their requests; the parser reads nothing for the others.
  fastify.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH')) return;
    const existing = route.preParsing ? [route.preParsing].flat() : [];
    route.preParsing = [
      ...existing,
      (request: BodyRequest, _reply, payload, done) => {
        request[TAKES_BODY] = true;
        const problem = checkMediaType(request.headers['content-type']);
        request[MEDIA_TYPE_PROBLEM] = problem;
        if (problem && request.headers['content-type'] !== undefined) request.headers['content-type'] = STAND_IN_TYPE;
        done(null, payload);
      },
    ];
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: BodyRequest, payload, done) => {
    const refuse = (error: DomainError) => {
      payload.pause();
      done(null, new RejectedBody(error));
    };
    if (!request[TAKES_BODY]) return refuse(new DomainError('method_not_allowed', 'This route takes no request body'));
    if (!BEARER.test(request.headers.authorization ?? '')) {
      return refuse(new DomainError('unauthorized', 'An API key is required to send a request body'));
    }
    const retryAfterSeconds = gate.retryAfterSeconds(request);
    if (retryAfterSeconds > 0) return refuse(new RateLimitedError(retryAfterSeconds, 'Too many failed authentications from this address'));
    // The preParsing hook above checked it when it marked the request as taking a body.
    if (request[MEDIA_TYPE_PROBLEM]) return refuse(request[MEDIA_TYPE_PROBLEM]);
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) return refuse(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | null, body?: unknown) => {
      if (settled) return;
      settled = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      payload.removeAllListeners('data');
      payload.pause();
      settle(null, new RejectedBody(tooLarge()));
    });
    payload.on('error', (error) => settle(error));
    payload.on('end', () => settle(null, new UnparsedJson(Buffer.concat(chunks))));
  });
}

function checkMediaType(header: string | undefined): DomainError | undefined {
  if (header === 'application/json') return undefined; // what nearly every client sends: no parsing
  const [type, ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (type === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return undefined;
  // The client's own header is not echoed back: the answer says what is accepted, not what was sent.
  const got = header ? 'another Content-Type was sent' : 'no Content-Type was sent';
  return new DomainError('unsupported_media_type', `The request body must be application/json in UTF-8 (${got})`);
}

function tooLarge(): DomainError {
  return new DomainError('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`);
}
