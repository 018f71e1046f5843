import { DomainError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RejectedBody } from './json-body-values';
import { BODY_LIMIT_BYTES } from './server-limits';

/**
 * One content-type parser for every media type: it keeps the raw bytes of a JSON body up to 64 KiB and
 * parses nothing, so that every refusal about the body (415, 413, 400) comes after the guards, through
 * @JsonBody: a client without a valid key is told 401 whatever it sent, and costs no parse.
 * Fastify's own parsers would parse JSON, or refuse other types, before any guard.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    const problem = mediaTypeProblem(request.headers['content-type']);
    // A refused body is not read: an answer sent before it arrived closes the connection (closeUnreadBodies).
    if (problem) return done(null, new RejectedBody(problem));
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) return done(null, new RejectedBody(tooLarge()));
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null, body?: unknown) => {
      payload.off('data', onData).off('end', onEnd).off('error', finish);
      done(error, body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      payload.pause();
      finish(null, new RejectedBody(tooLarge()));
    };
    const onEnd = () => finish(null, Buffer.concat(chunks));
    payload.on('data', onData).on('end', onEnd).on('error', finish);
  });
}

/**
 * An answer sent before its request's body was read whole says `Connection: close`, as Fastify's own
 * parsers do when they refuse a body: Node would otherwise read the rest to keep the connection
 * (all of a declared gigabyte).
 */
export function closeUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    done(null, payload);
  });
}

function mediaTypeProblem(header: string | undefined): DomainError | undefined {
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
