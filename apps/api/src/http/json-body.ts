import { DomainError, ValidationFailedError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * A body that could not be accepted. It is handed to the route instead of failing at once, because
 * authentication is checked before anything about the body: the body pipe throws it after the guard.
 */
export class RejectedBody {
  constructor(readonly error: DomainError) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Replaces Fastify's body parsers with one that accepts JSON only and defers every refusal. */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    const mediaTypeProblem = checkMediaType(request.headers['content-type']);
    const declared = Number(request.headers['content-length'] ?? 0);
    let refusal: DomainError | undefined = mediaTypeProblem;
    if (!refusal && declared > BODY_LIMIT_BYTES) refusal = tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      if (refusal) return; // keep reading so the connection stays usable, but keep nothing
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        refusal = tooLarge();
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => done(null, refusal ? new RejectedBody(refusal) : parseJson(Buffer.concat(chunks))));
  });
}

function checkMediaType(header: string | undefined): DomainError | undefined {
  const [type, ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (type === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return undefined;
  // The client's own header is not echoed back: the answer says what is accepted, not what was sent.
  const got = header ? 'another Content-Type was sent' : 'no Content-Type was sent';
  return new DomainError('unsupported_media_type', `The request body must be application/json in UTF-8 (${got})`);
}

function tooLarge(): DomainError {
  return new DomainError('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`);
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) {
    return new RejectedBody(new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]));
  }
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return new RejectedBody(new DomainError('malformed_json', 'The request body is not valid JSON (UTF-8)'));
  }
}
