import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { TestDatabase, createTestDatabase } from '../support/test-database';
import { HAPROXY_CFG, apiServerStats } from './haproxy';
import { pgBouncerCommand, writePgBouncerConfig } from './pgbouncer';
import { TcpRelay, findBinary, freePorts, readLog, track, waitForPort } from './servers';

export const INSTANCES = 3;

/**
 * The production topology as real processes on loopback: PostgreSQL (the server of DATABASE_URL, a
 * database of our own), PgBouncer in transaction pooling from deploy/pgbouncer/pgbouncer.ini, Redis,
 * three built instances, and HAProxy from deploy/haproxy/haproxy.cfg. `stop` ends every process it started.
 */
export class Topology {
  readonly instances: ServiceProcess[] = [];
  private readonly children: ChildProcess[] = [];
  private pgbouncer?: ChildProcess;
  /** Between PgBouncer and PostgreSQL: `database.cut()` makes the database unreachable for the pooled path. */
  databaseRelay?: TcpRelay;
  private stopping = false;
  private constructor(
    readonly dir: string,
    readonly database: TestDatabase,
    readonly ports: number[],
    readonly pgbouncerUrl: string,
    readonly instanceEnv: Record<string, string>,
    private readonly balancerEnv: Record<string, string>,
  ) {}

  /** The balancer's address. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.ports[0]}`;
  }

  /** `env` is the instances' (over the defaults below); `balancer` overrides HAProxy's settings (ONE_SOURCE_LOAD). */
  static async start(env: Record<string, string> = {}, balancer: Record<string, string> = {}): Promise<Topology> {
    process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
    const dir = mkdtempSync(join(tmpdir(), 'petstore-cluster-'));
    const database = await createTestDatabase();
    // balancer, PgBouncer, Redis, one per instance, then the relay to PostgreSQL
    const ports = await freePorts(3 + INSTANCES + 1);
    const direct = new URL(database.url);
    const pooled = new URL(database.url);
    pooled.host = `127.0.0.1:${ports[1]}`;
    const topology = new Topology(
      dir,
      database,
      ports,
      pooled.toString(),
      {
        NODE_ENV: 'production',
        DATABASE_URL: pooled.toString(),
        DATABASE_POOLING: 'transaction',
        DATABASE_DIRECT_URL: direct.toString(),
        REDIS_URL: `redis://127.0.0.1:${ports[2]}`,
        CURSOR_SECRET: randomBytes(32).toString('base64'),
        METRICS_TOKEN: randomBytes(32).toString('hex'),
        DRAIN_DELAY_MS: '1500',
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: 'info',
        ...env,
      },
      balancer,
    );
    try {
      await topology.startPgBouncer(direct);
      await topology.startRedis();
      await Promise.all(Array.from({ length: INSTANCES }, (_, i) => topology.startInstance(i)));
      await topology.startHaproxy();
      await topology.waitForServers(INSTANCES);
    } catch (error) {
      await topology.stop();
      throw error;
    }
    return topology;
  }

  /** Starts instance `i` (again) on its own port. */
  async startInstance(i: number): Promise<ServiceProcess> {
    this.instances[i] = await startServiceProcess({ ...this.instanceEnv, PORT: String(this.ports[3 + i]) });
    track(this.instances[i].child);
    return this.instances[i];
  }

  instanceUrl(i: number): string {
    return `http://127.0.0.1:${this.ports[3 + i]}`;
  }

  /** Resolves once HAProxy sees `count` servers UP (its health checks on /health/ready). */
  async waitForServers(count: number, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.serverStates()).filter((state) => state === 'UP').length === count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`HAProxy did not see ${count} instances up: ${(await this.serverStates()).join(', ')}`);
  }

  /** The state HAProxy holds of each instance (UP, DOWN, …), from its stats socket. */
  async serverStates(): Promise<string[]> {
    return (await this.serverStats()).map((server) => server.status);
  }

  /** Each instance's state and how many times HAProxy's checks took it from UP to DOWN (its `chkdown`). */
  serverStats(): Promise<{ status: string; downs: number }[]> {
    return apiServerStats(join(this.dir, 'haproxy.sock'));
  }

  /** Ends PgBouncer with `signal` (SIGKILL: a crash; SIGINT: its safe shutdown) and starts it again on its port after `downMs`. */
  async restartPgBouncer(signal: NodeJS.Signals, downMs: number): Promise<void> {
    const old = this.pgbouncer!;
    const ended = once(old, 'exit');
    old.kill(signal);
    await ended;
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.spawnPgBouncer();
  }

  /** SIGSTOP / SIGCONT to PgBouncer: a pooler that stops answering without closing anything. */
  signalPgBouncer(signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.pgbouncer!.kill(signal);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.instances.map((instance) => instance?.stop('SIGKILL')));
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(this.children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve())));
    await this.databaseRelay?.cut();
    await this.database.drop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async startPgBouncer(direct: URL): Promise<void> {
    const relayPort = this.ports[3 + INSTANCES];
    this.databaseRelay = await TcpRelay.start(relayPort, { host: direct.hostname, port: Number(direct.port || 5432) });
    writePgBouncerConfig(this.dir, this.ports[1], relayPort, direct);
    await this.spawnPgBouncer();
  }

  private async spawnPgBouncer(): Promise<void> {
    const [command, args] = pgBouncerCommand(this.dir);
    this.pgbouncer = this.spawn(command, args);
    await waitForPort(this.ports[1], () => readLog(join(this.dir, 'pgbouncer.log')));
  }

  private async startRedis(): Promise<void> {
    this.spawn(findBinary('redis-server'), ['--port', String(this.ports[2]), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    await waitForPort(this.ports[2], () => '');
  }

  private async startHaproxy(): Promise<void> {
    const env = {
      HAPROXY_BIND: `127.0.0.1:${this.ports[0]}`,
      HAPROXY_STATS_SOCKET: join(this.dir, 'haproxy.sock'),
      PETSTORE_STATIC_SERVERS: '1',
      ...Object.fromEntries(Array.from({ length: INSTANCES }, (_, i) => [`API_SERVER_${i + 1}`, `127.0.0.1:${this.ports[3 + i]}`])),
      ...this.balancerEnv,
    };
    this.spawn(findBinary('haproxy'), ['-db', '-f', HAPROXY_CFG], env);
    await waitForPort(this.ports[0], () => '');
  }

  private spawn(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
    child.on('exit', (code, signal) => {
      if (code && !signal && !this.stopping) console.error(`${command} exited with ${code}: ${errors}`);
    });
    this.children.push(child);
    track(child);
    return child;
  }
}

/** For a suite: beforeAll starts a Topology and connects a client straight to its database; afterAll stops both. */
export function useTopology(env: Record<string, string>, balancer: Record<string, string> = {}): { topology: Topology; sql: Client } {
  const suite = {} as { topology: Topology; sql: Client };
  beforeAll(async () => {
    suite.topology = await Topology.start(env, balancer);
    suite.sql = new Client({ connectionString: suite.topology.database.url });
    await suite.sql.connect();
  }, 60_000);
  afterAll(async () => {
    await suite.sql?.end();
    await suite.topology?.stop();
  }, 60_000);
  return suite;
}
