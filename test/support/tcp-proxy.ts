import { AddressInfo, Server, Socket, createConnection, createServer } from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'blackhole';

/**
 * A TCP proxy in front of a database, controlled by the test: `up` forwards, `refuse` drops every
 * connection at once (a database that is down), `blackhole` accepts and forwards nothing (a database
 * that stopped answering: only timeouts notice it).
 */
export class TcpProxy {
  private mode: ProxyMode = 'up';
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Changes the mode; leaving `up` also cuts every connection that is open. */
  set(mode: ProxyMode): void {
    this.mode = mode;
    if (mode === 'refuse') for (const socket of this.sockets) socket.destroy();
    if (mode === 'blackhole') for (const socket of this.sockets) socket.pause();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    this.track(client);
    if (this.mode === 'refuse') return void client.destroy();
    if (this.mode === 'blackhole') return void client.pause();
    const upstream = createConnection(target);
    this.track(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.mode === 'up') to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
