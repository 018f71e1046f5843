import { DomainError, ValidationFailedError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * A body that could not be accepted. It is handed to the route instead of failing at once, because
 * authentication is checked before anything about the body: the body pipe throws it after the guard.
 */
export class RejectedBody {
  constructor(readonly error: DomainError) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const REPLY = Symbol('reply');
type RequestWithReply = FastifyRequest & { [REPLY]?: FastifyReply };

/**
 * Replaces Fastify's body parsers with one that accepts JSON only and defers every refusal. A body over
 * the limit is not read on: as soon as Content-Length or the count passes 64 KiB the route runs (401 or
 * 413) and its answer closes the connection, so nothing past the limit is read (Node would otherwise
 * read a kept-alive request's unread body to its end, 1 GiB included).
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  // The parser is not handed the reply; routes that take a body hand it over (no cost for the others).
  fastify.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH')) return;
    const existing = route.preParsing ? [route.preParsing].flat() : [];
    route.preParsing = [
      ...existing,
      (request, reply, payload, done) => {
        (request as RequestWithReply)[REPLY] = reply;
        done(null, payload);
      },
    ];
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    let settled = false;
    const finish = (error: Error | null, body?: unknown) => {
      if (settled) return;
      settled = true;
      done(error, body);
    };
    const stopReading = () => {
      payload.removeAllListeners('data');
      payload.pause();
      (request as RequestWithReply)[REPLY]?.header('connection', 'close');
      lingerOnClose(request.raw.socket);
      finish(null, new RejectedBody(tooLarge()));
    };
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) return stopReading();
    const mediaTypeProblem = checkMediaType(request.headers['content-type']);
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) return stopReading();
      if (!mediaTypeProblem) chunks.push(chunk); // a body of another type is read (to keep the connection), not kept
    });
    payload.on('error', (error) => finish(error));
    payload.on('end', () => finish(null, mediaTypeProblem ? new RejectedBody(mediaTypeProblem) : parseJson(Buffer.concat(chunks))));
  });
}

/** How long a refused connection stays half-closed before it is reset. */
const LINGER_MS = 1000;

/**
 * Closing a socket whose unread body is still arriving makes the kernel send a reset, which can overtake
 * the answer: a client on Node.js 24 then sees EPIPE and no response at all. So after the answer, send FIN,
 * read nothing more, and reset only after LINGER_MS, by which time the answer has arrived (a lingering
 * close, as in Apache, but reading nothing: the client's writes just stall).
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.pause();
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

function checkMediaType(header: string | undefined): DomainError | undefined {
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
