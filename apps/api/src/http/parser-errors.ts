import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_STATUS, ErrorCode, apiError } from '@petstore/contracts';
import { REQUEST_ID_HEADER } from '../logging/request-log';
import { PLAIN_SECURITY_HEADERS } from './security-headers';

/** Fastify's `clientErrorHandler`: what Node's parser refuses gets the Error body, security headers and a request id. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] = refusalOf(error.code);
  const body = JSON.stringify(apiError(code, message));
  const headers: Record<string, string | number> = {
    ...PLAIN_SECURITY_HEADERS,
    [REQUEST_ID_HEADER]: randomUUID(),
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
