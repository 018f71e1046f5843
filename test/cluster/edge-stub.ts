import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { Socket, connect } from 'node:net';
import { sleep } from '../support/load';
import { HAPROXY_CFG } from './haproxy';
import { findBinary, freePorts, waitForPort } from './servers';

/** What reached the stand-in instances: each request's head and how many body bytes came with it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

/**
 * deploy/haproxy/haproxy.cfg in front of three stand-in instances that record what reaches them: for
 * what the edge alone decides (bodies, X-Forwarded-For), where the question is what an instance sees.
 * The stand-ins answer /health/ready 200 and everything else 200 with what they received.
 */
export class StubEdge {
  private constructor(
    readonly port: number,
    readonly received: Received[],
    private readonly servers: Server[],
    private readonly haproxy: ChildProcess,
  ) {}

  static async start(): Promise<StubEdge> {
    const [port, ...ports] = await freePorts(4);
    const received: Received[] = [];
    const servers = await Promise.all(
      ports.map(async (p) => {
        const server = createServer((req, res) => {
          if (req.url === '/health/ready') return void res.end('{}');
          const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes: 0 };
          received.push(entry);
          req.on('data', (chunk: Buffer) => (entry.bodyBytes += chunk.length));
          req.on('end', () =>
            res
              .setHeader('content-type', 'application/json')
              .setHeader('keep-alive', 'timeout=75')
              .end(JSON.stringify({ xff: req.headers['x-forwarded-for'] })),
          );
        });
        server.listen(p, '127.0.0.1');
        await once(server, 'listening');
        return server;
      }),
    );
    const env = {
      PATH: process.env.PATH,
      HAPROXY_BIND: `127.0.0.1:${port}`,
      PETSTORE_STATIC_SERVERS: '1',
      ...Object.fromEntries(ports.map((p, i) => [`API_SERVER_${i + 1}`, `127.0.0.1:${p}`])),
    };
    const haproxy = spawn(findBinary('haproxy'), ['-db', '-f', HAPROXY_CFG], { env, stdio: 'ignore' });
    const edge = new StubEdge(port, received, servers, haproxy);
    await waitForPort(port, () => '');
    // Until the health checks see the stand-ins up (rise 2, 500 ms apart).
    for (let i = 0; i < 50 && (await rawRequest(port, 'GET /v1/ready HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).status !== 200; i++)
      await sleep(100);
    received.length = 0;
    return edge;
  }

  async stop(): Promise<void> {
    this.haproxy.kill('SIGTERM');
    if (this.haproxy.exitCode === null) await once(this.haproxy, 'exit');
    for (const server of this.servers) server.closeAllConnections();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export interface RawAnswer {
  status: number;
  headers: string;
  body: unknown;
  /** Body bytes the client managed to write before the answer and close (`stream`). */
  written: number;
  /** From the first byte of the answer to the close of the connection. */
  closedAfterMs: number;
}

/**
 * Sends `head` (and `body`, if any) on a new connection from `localAddress`; with `streamMs`, then keeps
 * writing 16 KiB chunks of an endless chunked body for that long, or until the edge closes. Resolves with
 * the first answer (status 0: none) once the edge closes the connection, or after `waitMs` (3 s).
 */
export async function rawRequest(
  port: number,
  head: string,
  options: { body?: Buffer; streamMs?: number; localAddress?: string; waitMs?: number } = {},
): Promise<RawAnswer> {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
  socket.on('error', () => undefined);
  let text = '';
  let written = 0;
  let answered = 0;
  socket.on('data', (chunk: Buffer) => {
    answered ||= performance.now();
    text += chunk.toString('latin1');
  });
  // Not events.once: it rejects on the EPIPE of a connection the edge closed, which is what is expected here.
  const event = (name: string) => new Promise((resolve) => socket.once(name, resolve));
  const closed = event('close');
  await Promise.race([event('connect'), closed]);
  socket.write(head);
  if (options.body) socket.write(options.body);
  if (options.streamMs) {
    const chunk = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 'a'), Buffer.from('\r\n')]);
    const deadline = Date.now() + options.streamMs;
    while (Date.now() < deadline && !socket.destroyed && !socket.writableEnded) {
      if (!socket.write(chunk)) await Promise.race([event('drain'), closed, sleep(deadline - Date.now())]);
      written += 0x4000;
    }
  }
  await Promise.race([closed, sleep(options.waitMs ?? 3000)]);
  const closedAfterMs = performance.now() - answered;
  socket.destroy();
  const [headers, body = ''] = text.split('\r\n\r\n');
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON: kept as text for the assertion's message
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body: parsed, written, closedAfterMs };
}
