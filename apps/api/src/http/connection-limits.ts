import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { announcesBody, closeIfBodyUnread } from './unread-bodies';

/** Answers one connection may have waiting behind the one being sent (pipelined requests). */
export const MAX_WAITING_ANSWERS = 4;
/**
 * Answers all connections together may have waiting: a waiting answer holds its request and reply
 * objects (a few KB of heap each), so 1,000 connections of 16 each aborted a 96 MB heap one run in three.
 * Only clients that pipeline ever wait; the others are never refused by this.
 */
export const MAX_WAITING_ANSWERS_IN_ALL = 1024;
/** Bytes one connection may have queued in the process, unsent, when its next request arrives. */
export const MAX_QUEUED_BYTES = 1024 * 1024;

const WAITING = Symbol('waitingAnswers');
/** Node's HTTP parser of the connection: `onIncoming` answers llhttp's on_headers_complete for each request. */
type CountedSocket = Socket & { [WAITING]?: number; parser?: { onIncoming: unknown } | null };
type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Bounds what one client can make the process hold. Connections beyond `maxConnections` are closed as
 * they arrive. A client that pipelines requests and never reads the answers would otherwise have every
 * answer queued in memory (50 documents per connection on 1,000 connections: a heap abort in seconds):
 * a request arriving while MAX_WAITING_ANSWERS answers already wait on its connection (or
 * MAX_WAITING_ANSWERS_IN_ALL on all of them), or while MAX_QUEUED_BYTES are still unsent on it, closes
 * the connection and reaches no handler.
 * It wraps the server's request listeners (Fastify's), so a refused request costs nothing more.
 */
export function limitConnections(server: Server, maxConnections: number): void {
  server.maxConnections = maxConnections;
  let waitingInAll = 0;
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as CountedSocket;
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_QUEUED_BYTES) return refuse(socket);
    // Node gives a pipelined request's answer its socket only once the answers before it are sent.
    if (response.socket === null) {
      const waiting = (socket[WAITING] ?? 0) + 1;
      if (waiting > MAX_WAITING_ANSWERS || waitingInAll >= MAX_WAITING_ANSWERS_IN_ALL) return refuse(socket);
      socket[WAITING] = waiting;
      waitingInAll += 1;
      // Once, on whichever comes first: an answer sent, or a request dropped with its connection.
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        socket[WAITING] = (socket[WAITING] ?? 1) - 1;
        waitingInAll -= 1;
      };
      response.once('close', done);
      request.once('close', done);
    }
    if (announcesBody(request)) closeIfBodyUnread(request, response);
    for (const listener of listeners) listener.call(server, request, response);
  });
}

/** llhttp's on_headers_complete answer "upgrade": parse no further, leaving the rest of the chunk unread. */
const STOP_PARSING = 2;

/**
 * Closes the connection and stops its parser. Node parses every request of a received chunk before
 * anything else runs, and holds each request and answer until the connection's 'close': closing alone,
 * 1,000 connections of 300 pipelined `GET /health/live` each still aborted the 96 MB heap. Told "upgrade"
 * at the next request's headers, the parser leaves the rest of the chunk unparsed (the connection is
 * closed, so nothing is upgraded); Node gives the parser a new `onIncoming` with its next connection.
 */
function refuse(socket: CountedSocket): void {
  socket.destroy();
  if (socket.parser) socket.parser.onIncoming = () => STOP_PARSING;
}
