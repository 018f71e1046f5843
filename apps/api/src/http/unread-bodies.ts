import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused connection stays half-closed before it is reset. */
const LINGER_MS = 1000;

/** Whether the request announces a body (chunked, or a Content-Length above 0). */
export function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A body is read only by a route that takes it, and only once the request may be served (see
 * json-body.ts). Node would otherwise read the rest of any unread body after the answer, to keep the
 * connection: 1.8 GB in 10 s of an endless chunked body on a GET. So an answer that leaves its request's
 * body incomplete says `Connection: close` and closes without reading on. Called for requests that
 * announce a body only: the others pay nothing.
 */
export function closeIfBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = (...args: unknown[]) => {
    if (!request.complete) {
      response.setHeader('connection', 'close');
      lingerOnClose(request.socket);
    }
    return writeHead(...args);
  };
}

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
