import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { DomainError, ValidationFailedError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES } from './server-limits';

/**
 * One parser for every media type, keeping the raw bytes of a JSON body up to 64 KiB: every refusal about
 * the body (415, 413, 400) comes after the guards, through @JsonBody, so a client without a key is told 401
 * and costs no parse. Fastify's own parsers would refuse before any guard. A refused body is kept as its DomainError.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  // A malformed Content-Type Fastify refuses (415) before any parser or guard; its documented remedy is an onRequest
  // hook that rewrites the header. Every refused one is replaced by a well-formed one, its refusal kept for @JsonBody.
  const refused = new WeakMap<FastifyRequest, DomainError>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers['content-type'];
    const problem = header === undefined ? undefined : mediaTypeProblem(header);
    if (problem) {
      refused.set(request, problem);
      request.headers['content-type'] = 'application/octet-stream';
    }
    // Fastify answers a QUERY without Content-Type 400 (RFC 10008) before routing; no route serves QUERY: 404 or 405.
    else if (header === undefined && request.method === 'QUERY') request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    const problem = refused.get(request) ?? mediaTypeProblem(request.headers['content-type']) ?? codingProblem(request.headers['content-encoding']);
    // A refused body is not read: an answer sent before it arrived closes the connection (closeUnreadBodies).
    if (problem) return done(null, problem);
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) return done(null, tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: unknown) => {
      payload.off('data', onData).off('end', onEnd).off('error', onError);
      done(null, body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      payload.pause();
      finish(tooLarge());
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    // The client closed the connection mid-body (Node's "aborted"): its fault, not the service's, as Fastify's own parsers say.
    const onError = () => finish(new DomainError('malformed_request', 'The request body did not arrive whole: the connection closed first'));
    payload.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/**
 * An answer sent before its body was read whole closes the connection, as Fastify's parsers do: Node would read the rest.
 * A request without a body is not complete either while it is answered at once (a 404), so only a declared body counts.
 */
export function closeUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if ((chunked !== undefined || Number(length ?? 0) > 0) && !request.raw.complete) reply.header('connection', 'close');
    done(null, payload);
  });
}

function mediaTypeProblem(header: string | undefined): DomainError | undefined {
  if (header === 'application/json') return undefined; // what nearly every client sends: no parsing
  const [type, ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  // Two charsets are ambiguous: another reader may take the other one.
  const [charset, ...more] = parameters.filter((p) => p.startsWith('charset=')).map((p) => p.replace(/^charset=|"/g, ''));
  if (type === 'application/json' && more.length === 0 && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return undefined;
  // The client's own header is not echoed back: the answer says what is accepted, not what was sent.
  const got =
    type === 'application/json' ? 'only the charset utf-8 is supported' : header ? 'another Content-Type was sent' : 'no Content-Type was sent';
  return new DomainError('unsupported_media_type', `The request body must be application/json in UTF-8 (${got})`);
}

/** A body compressed (gzip, br…) is not read as JSON: RFC 9110 §8.4 lets a server refuse a content coding with 415. */
function codingProblem(header: string | undefined): DomainError | undefined {
  if (header === undefined || /^\s*(identity\s*)?$/i.test(header)) return undefined;
  return new DomainError('unsupported_media_type', 'The request body must not be encoded: Content-Encoding is not supported (send identity)');
}

const tooLarge = () => new DomainError('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `@JsonBody()`: the request's JSON body, parsed after the guards and kept as its body (the idempotency hash reads it). */
export const JsonBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const body = request.body;
  if (body instanceof DomainError) throw body;
  if (!Buffer.isBuffer(body)) return body;
  if (body.length === 0) throw new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]);
  try {
    request.body = JSON.parse(utf8.decode(body));
  } catch {
    throw new DomainError('malformed_json', 'The request body is not valid JSON (UTF-8)');
  }
  return request.body;
});
