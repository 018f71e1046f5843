import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { runLoad, sleep } from '../support/load';
import { isRunning } from '../support/processes';
import { ServiceProcess, createServiceDatabase, spawnInTerminal, startServiceProcess } from '../support/service-process';
import { parseAnswer } from '../support/raw-http';
import { AUTH } from '../support/test-key';
import { copyOfTemplate } from '../support/test-database';

describe('SIGTERM drain (built service under write load)', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await createServiceDatabase();
  });
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  /** A service of its own for the test. */
  async function restart(drainDelayMs = '0'): Promise<ServiceProcess> {
    await service?.stop();
    return (service = await startServiceProcess({ ...database.env, DRAIN_DELAY_MS: drainDelayMs }));
  }

  it('answers every request sent before the signal, accepts no new connection, exits 0 within 10 s, and keeps every created pet', async () => {
    // A drain delay far longer than the window checked below: a busy machine may connect a request late.
    const first = await restart('3000');
    let signalAt = Infinity;
    let exitedAt = Infinity;
    const exit = first.exited.then((code) => {
      exitedAt = performance.now();
      return code;
    });
    // The signal once the load is under way: 50 answers (more than the 20 checked below), not a fixed time.
    let answered = 0;
    let underWay = () => undefined as void;
    const loaded = new Promise<void>((resolve) => (underWay = resolve));
    const load = runLoad({
      baseUrl: first.baseUrl,
      headers: AUTH,
      concurrency: 16,
      until: exit,
      next: (c, i) => ({ method: 'POST', path: '/v1/pets', body: { name: `drain ${c}-${i}`, categoryId: 7 } }),
      onOutcome: () => ++answered === 50 && underWay(),
    });
    await loaded;
    signalAt = performance.now();
    // Draining begins when the service handles the signal, which a busy machine may delay: the line it
    // logs then is the event the drain's checks count from.
    let drainAt = Infinity;
    const drainLogged = new Promise<void>((resolve) =>
      first.child.stdout!.on('data', (chunk: Buffer) => {
        if (drainAt === Infinity && chunk.toString().includes('SIGTERM received')) {
          drainAt = performance.now();
          resolve();
        }
      }),
    );
    first.child.kill('SIGTERM');
    await drainLogged;
    await sleep(300);
    // Draining: still listening, but readiness says not to send more, and answers end their connection.
    const ready = await fetch(`${first.baseUrl}/health/ready`);
    expect({ status: ready.status, connection: ready.headers.get('connection') }).toEqual({ status: 503, connection: 'close' });
    expect(await ready.json()).toEqual({ code: 'service_unavailable', message: 'Not ready: shutting down', status: 503 });
    const [{ t0, outcomes }, code] = await Promise.all([load, exit]);

    expect(code).toBe(0);
    expect(exitedAt - signalAt).toBeLessThan(10000);
    expect(exitedAt - signalAt).toBeGreaterThanOrEqual(3000);
    // "Sent": handed to the client more than 20 ms before the signal. A fetch begun in the last instant may
    // still sit in the client when the server closes its idle keep-alive socket (the HTTP/1.1 close race).
    const before = outcomes.filter((o) => t0 + o.start < signalAt - 20);
    expect(before.length).toBeGreaterThan(20);
    // Sent before the signal: created.
    expect(before.filter((o) => o.status !== 201)).toEqual([]);
    // While draining every answer closes its connection, so a client (a balancer) sends nothing more on it.
    const drained = outcomes.filter((o) => t0 + o.start > drainAt && o.status === 201);
    expect(drained.filter((o) => o.headers.get('connection') !== 'close')).toEqual([]);
    // During the drain delay (3 s) every request sent in its first 900 ms is served; once the listener has closed, nothing new is.
    expect(outcomes.filter((o) => t0 + o.start < signalAt + 900 && o.status !== 201)).toEqual([]);
    expect(outcomes.filter((o) => t0 + o.start > drainAt + 3200 && o.status === 201)).toEqual([]);
    expect(first.lines.some((line) => line.includes('SIGTERM received'))).toBe(true);

    const created = outcomes.filter((o) => o.status === 201).map((o) => o.body as { id: number; name: string });
    service = await startServiceProcess(database.env);
    const second = service;
    const missing: number[] = [];
    const ids = [...created];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let pet = ids.pop(); pet; pet = ids.pop()) {
          const response = await fetch(`${second.baseUrl}/v1/pets/${pet.id}`, { headers: AUTH });
          const body = (await response.json()) as { name: string };
          if (response.status !== 200 || body.name !== pet.name) missing.push(pet.id);
        }
      }),
    );
    expect(missing).toEqual([]);
  }, 60000);

  /** A create whose head has reached the service (Node's 100 Continue says it is in flight) and whose body has not. */
  async function createInFlight(current: ServiceProcess, body: string) {
    const { hostname, port } = new URL(current.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n`;
    socket.write(`${head}Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    const answer = { raw: '' };
    socket.on('data', (chunk: Buffer) => (answer.raw += chunk.toString()));
    while (!answer.raw.includes('100 Continue\r\n\r\n')) await sleep(50);
    answer.raw = answer.raw.slice(answer.raw.indexOf('\r\n\r\n') + 4);
    return { socket, answer };
  }

  /** Every line the service wrote, once its standard output has closed. */
  async function allLines(current: ServiceProcess): Promise<string[]> {
    if (!current.child.stdout!.closed) await once(current.child.stdout!, 'close');
    return current.lines;
  }

  it('answers a request in flight at the signal with Connection: close, logs it, and exits 0 without waiting for the 8 s deadline', async () => {
    const current = await restart();
    const body = JSON.stringify({ name: 'in flight', categoryId: 7 });
    const { socket, answer } = await createInFlight(current, body);
    try {
      current.child.kill('SIGTERM');
      while (!current.lines.some((line) => line.includes('SIGTERM received'))) await sleep(50);
      socket.write(body);
      while (!parseAnswer(answer.raw)) await sleep(50);
      const { status, headers } = parseAnswer(answer.raw)!;
      expect({ status, connection: headers.connection }).toEqual({ status: 201, connection: 'close' });
      // The client keeps its end open: a connection kept alive held the stop to its deadline, which exits 1.
      expect(await current.exited).toBe(0);
      // Its line is written before the exit, not lost with the log's last 200 ms.
      expect((await allLines(current)).filter((line) => line.includes('"msg":"POST /v1/pets 201"'))).toHaveLength(1);
    } finally {
      socket.destroy();
    }
  }, 60000);

  it('cuts a request still unfinished 8 s after the signal, says so in its log, and exits 1', async () => {
    const current = await restart();
    const { socket } = await createInFlight(current, JSON.stringify({ name: 'never sent whole', categoryId: 7 }));
    try {
      socket.write('{"na');
      current.child.kill('SIGTERM');
      expect(await current.exited).toBe(1);
      expect((await allLines(current)).filter((line) => line.includes('still draining after 8000 ms'))).toHaveLength(1);
    } finally {
      socket.destroy();
    }
  }, 60000);
});

describe('SIGHUP: the terminal of the built service closes', () => {
  it('stops it as SIGTERM does: the embedded PostgreSQL closed, its socket folder removed, DATA_DIR released', async () => {
    // A DATA_DIR whatever DATABASE_URL says: what a clean stop leaves is visible there.
    const copy = copyOfTemplate();
    const dataDir = copy?.dataDir ?? mkdtempSync(join(tmpdir(), 'petstore-hangup-'));
    // In a pseudo-terminal; killing `script` hangs the terminal up.
    // A drain long enough for the log's periodic flush to meet the hung-up terminal (EIO): unheard, that error killed it.
    const terminal = spawnInTerminal({ LOG_FORMAT: 'json', DATA_DIR: dataDir, DRAIN_DELAY_MS: '2000' });
    try {
      let pid = 0;
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: terminal.stdout }).on('line', (line) => {
          if (line.startsWith('{')) pid = (JSON.parse(line) as { pid: number }).pid;
          if (line.includes('Database: ')) resolve();
        });
        terminal.on('exit', () => reject(new Error('the service exited before its banner')));
      });
      const owner = join(dataDir, 'embedded-postgres.json');
      const socketFolder = new URL((JSON.parse(readFileSync(owner, 'utf8')) as { url: string }).url).searchParams.get('host')!;
      expect(pid).toBeGreaterThan(0);
      terminal.kill('SIGKILL');
      while (isRunning(pid)) await sleep(100);
      expect({ owner: existsSync(owner), socketFolder: existsSync(socketFolder) }).toEqual({ owner: false, socketFolder: false });
    } finally {
      terminal.kill('SIGKILL');
      rmSync(copy ? join(dataDir, '..') : dataDir, { recursive: true, force: true });
    }
  }, 60000);
});
