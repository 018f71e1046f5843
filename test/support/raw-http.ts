import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/** The first HTTP answer in `raw` (head and a Content-Length body), or undefined while it is incomplete. */
export function parseAnswer(raw: string): RawAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  if (raw.length < end + 4 + length) return undefined;
  const text = raw.slice(end + 4, end + 4 + length);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, body };
}

export interface FloodResult {
  answer?: RawAnswer;
  /** Body bytes the server let through (the kernel's buffers included) before it stopped reading or closed. */
  bytesSent: number;
  /** Whether the server closed the connection within the time allowed. */
  closed: boolean;
}

/**
 * Sends `head`, then a chunked body without end, as fast as the server takes it, until the server
 * closes the connection, `maxBytes` are sent or `maxMs` pass (then the socket is destroyed).
 * A server that reads a body it does not want takes every byte; one that stops reading takes what
 * the kernel buffers hold (a few MB on loopback).
 */
export function floodBody(baseUrl: string, head: string, maxBytes = 64 * 1024 * 1024, maxMs = 8000): Promise<FloodResult> {
  const { hostname, port } = new URL(baseUrl);
  const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 'a'), Buffer.from('\r\n')]);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let bytesSent = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: parseAnswer(received), bytesSent, closed });
    };
    const timer = setTimeout(() => finish(false), maxMs);
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    const pump = () => {
      while (!done && !socket.destroyed && bytesSent < maxBytes) {
        bytesSent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (bytesSent >= maxBytes) finish(false);
    };
    socket.write(head, pump);
  });
}

/** Sends `request` as is and resolves with the raw answer and how long the server took to close. */
export function sendRaw(baseUrl: string, request: string | Buffer, maxMs = 5000): Promise<{ raw: string; answer?: RawAnswer; closed: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let raw = '';
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ raw, answer: parseAnswer(raw), closed });
    };
    const timer = setTimeout(() => finish(false), maxMs);
    socket.on('data', (data) => (raw += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.write(request);
  });
}
