import { randomUUID } from 'node:crypto';
import { IncomingMessage, STATUS_CODES, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { PinoLogger } from 'nestjs-pino';
import { ERROR_STATUS, ErrorCode, apiError } from '@petstore/contracts';
import { loggableUrl } from '../logging/loggable-url';
import { REQUEST_ID_HEADER, requestIdGenerator } from '../logging/request-log';
import { PLAIN_SECURITY_HEADERS } from './security-headers';

/** Fastify's `clientErrorHandler`: what Node's parser refuses gets the Error body, security headers and a request id,
 * and its line in the log; `answered` counts it (no method nor route is known). */
export function clientErrorHandler(answered: (status: number) => void) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [code, message] = refusalOf(error.code);
    const requestId = randomUUID();
    refuse(socket, code, message, requestId);
    PinoLogger.root.info({ requestId, res: { statusCode: ERROR_STATUS[code] } }, `${message} ${ERROR_STATUS[code]}`);
    answered(ERROR_STATUS[code]);
  };
}

/**
 * CONNECT asks for a tunnel, which this server is not: Node hands it to 'connect' listeners alone, without
 * one it drops the connection unanswered. Answered 405 (an empty Allow: no method opens a tunnel) and logged.
 */
export function refuseConnect(server: Server, apiKeys: readonly string[]): void {
  const requestId = requestIdGenerator(apiKeys);
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const id = requestId(request);
    socket.on('error', () => undefined); // Node no longer watches this socket: a reset must not throw
    refuse(socket, 'method_not_allowed', 'CONNECT is not allowed: this server is not a proxy', id, { allow: '' });
    const req = { method: 'CONNECT', url: loggableUrl(request.url ?? '', apiKeys) };
    PinoLogger.root.info({ requestId: id, req, res: { statusCode: 405 } }, `CONNECT ${req.url} 405`);
  });
}

/**
 * An Expect other than 100-continue: Node answers a bare 417 unless someone listens. RFC 9110 §10.1.1 lets a server
 * ignore it instead, so the request is served as any other (its key checked, its answer the Error body if refused).
 */
export function serveUnknownExpectations(server: Server, fastify: FastifyInstance): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => fastify.routing(request, response));
}

function refuse(socket: Socket, code: ErrorCode, message: string, requestId: string, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(apiError(code, message));
  const headers: Record<string, string | number> = {
    ...PLAIN_SECURITY_HEADERS,
    ...extra,
    [REQUEST_ID_HEADER]: requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  const status = ERROR_STATUS[code];
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  socket.destroy();
}

function refusalOf(parserCode: string | undefined): [ErrorCode, string] {
  if (parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') return ['request_timeout', 'The request did not arrive within the time allowed'];
  if (parserCode === 'HPE_HEADER_OVERFLOW') return ['headers_too_large', 'The request headers are larger than 16 KiB'];
  return ['malformed_request', 'The request is not valid HTTP/1.1'];
}
