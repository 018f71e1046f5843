import { connect, Socket } from 'node:net';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { STARTUP_TIMEOUT_MS } from '../support/test-app';

/**
 * Clients that pipeline requests and never read the answers. Each answer used to stay queued in the
 * process, and 1,000 connections of 50 requests for the document (2 MB sent) aborted a 96 MB heap in
 * seconds. The service runs here as in production, with that heap.
 */
describe('pipelined requests never read (e2e)', () => {
  let service: ServiceProcess;
  let drop: () => Promise<void>;
  const CONNECTIONS = 1000;

  beforeAll(async () => {
    const database = await createServiceDatabase();
    drop = database.drop;
    service = await startServiceProcess({ ...database.env, LOG_LEVEL: 'info' }, { launcher: true });
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await drop?.();
  }, STARTUP_TIMEOUT_MS);

  // Node parses every request of a chunk at once: 300 small ones per connection aborted the heap even
  // once each connection was closed at its fifth waiting answer, until its parser was stopped too.
  it.each([
    { what: 'the documents', paths: ['/docs/openapi.json', '/docs/swagger-ui-init.js'], pipelined: 50 },
    { what: 'GET /health/live', paths: ['/health/live'], pipelined: 300 },
  ])(
    'survives $what asked $pipelined times per connection on 1,000 connections that never read, and still serves',
    async ({ paths, pipelined }) => {
      const { port } = new URL(service.baseUrl);
      const sockets: Socket[] = [];
      let exitCode: number | null | undefined;
      void service.exited.then((code) => (exitCode = code));
      for (let i = 0; i < CONNECTIONS; i++) {
        const requests = `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(pipelined);
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.pause();
          socket.write(requests);
        });
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      // Long enough for every request to be handled (the abort came after 3-9 s).
      const until = Date.now() + 12_000;
      while (Date.now() < until && exitCode === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
      const health =
        exitCode === undefined
          ? await fetch(`${service.baseUrl}/health/live`, { signal: AbortSignal.timeout(10_000) }).then(
              (response) => response.status,
              () => 'no answer within 10 s',
            )
          : undefined;
      for (const socket of sockets) socket.destroy();
      const ended = exitCode === undefined ? undefined : `${exitCode ?? service.child.signalCode}: ${service.stderr().slice(-2000)}`;
      expect({ ended, health }).toEqual({ ended: undefined, health: 200 });
      // The bound on waiting answers is given back as connections go: a client pipelining a few is served.
      expect(await pipelinedAnswers(Number(port), 3)).toBe(3);
    },
    40_000,
  );
});

/** Sends `count` pipelined `GET /health/live` on one connection; resolves with the 200s it got. */
function pipelinedAnswers(port: number, count: number): Promise<number> {
  return new Promise((resolve) => {
    let data = '';
    const answered = () => (data.match(/HTTP\/1\.1 200/g) ?? []).length;
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(count)));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
      if (answered() === count) socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answered()));
  });
}
