import { ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { AddressInfo, Server, Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';

/* Small helpers for starting real servers on loopback ports. */

/** Every process a topology started and has not seen end: killed if the test process exits first (a timeout, a crash). */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));
export const track = (child: ChildProcess) => {
  running.add(child);
  child.once('exit', () => running.delete(child));
};

/** Distinct free loopback ports (held open together, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function waitForPort(port: number, diagnostics: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.on('connect', () => socket.destroy());
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms ${diagnostics()}`);
}

export function findBinary(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin', '/sbin'])) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`${name} is not installed (Debian: apt-get install haproxy pgbouncer redis-server)`);
}

export const uidOf = (user: string) => Number(execFileSync('id', ['-u', user]).toString());
export const gidOf = (user: string) => Number(execFileSync('id', ['-g', user]).toString());
export const readLog = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').slice(-1000) : '');

/**
 * A TCP relay to `target` on a loopback port: `cut` closes every relayed connection and stops listening
 * (the target seems gone: connections refused), `restore` listens again on the same port.
 */
export class TcpRelay {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(port: number, target: { host: string; port: number }): Promise<TcpRelay> {
    const relay = new TcpRelay(port, target);
    await relay.restore();
    return relay;
  }

  async restore(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
