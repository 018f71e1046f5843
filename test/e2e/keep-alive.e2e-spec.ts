import { connect } from 'node:net';
import { once } from 'node:events';
import { parseAnswer } from '../support/raw-http';
import { useTestApp } from '../support/test-app';

const LIVE = 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n';

describe('keep-alive (e2e)', () => {
  const api = useTestApp();

  it('keeps an idle connection longer than clients and balancers keep theirs (75 s)', async () => {
    const { hostname, port } = new URL(api.baseUrl);
    const socket = connect(Number(port), hostname);
    let raw = '';
    socket.on('data', (data) => (raw += data.toString('latin1')));
    const answered = async () => {
      while (!parseAnswer(raw)) await once(socket, 'data');
      const answer = parseAnswer(raw)!;
      raw = '';
      return answer;
    };
    socket.write(LIVE);
    const first = await answered();
    // `max`: the requests one connection may carry (Fastify's maxRequestsPerSocket).
    expect(first.headers['keep-alive']).toBe('timeout=75, max=10000');
    // Longer than the 5 s the server used to keep an idle connection.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(socket.destroyed || socket.readableEnded).toBe(false);
    socket.write(LIVE);
    expect((await answered()).status).toBe(200);
    socket.destroy();
  }, 15_000);

  it('closes a connection after its 10,000th answer, which says so: a request sent past it is never answered a bare 503', async () => {
    const { hostname, port } = new URL(api.baseUrl);
    const socket = connect(Number(port), hostname);
    let raw = '';
    let answers = 0;
    let scanned = 0; // where the next status line may start: the last 8 characters may begin one not yet whole
    let closed = false;
    // Node alone answered the 10,000th `Connection: close` yet kept the connection, and every later request a bare 503.
    const done = new Promise<void>((resolve) => {
      socket.on('data', (data) => {
        raw += data.toString('latin1');
        for (let at = raw.indexOf('HTTP/1.1 ', scanned); at !== -1; at = raw.indexOf('HTTP/1.1 ', at + 1)) answers++;
        scanned = raw.length - 8;
        if (answers > 10_000) resolve();
      });
      socket.on('close', () => {
        closed = true;
        resolve();
      });
      socket.on('error', () => undefined);
    });
    // Pipelined, a thousand at a time: the 10,001st is on its way before the 10,000th answer arrives.
    for (let sent = 0; sent < 10_001; sent += 1000) socket.write(LIVE.repeat(Math.min(1000, 10_001 - sent)));
    await done;
    socket.destroy();
    const statuses = raw.match(/HTTP\/1\.1 \d+/g) ?? [];
    const last = parseAnswer(raw.slice(raw.lastIndexOf('HTTP/1.1 ')));
    expect({ answers, notOk: statuses.filter((status) => status !== 'HTTP/1.1 200'), closed }).toEqual({ answers: 10_000, notOk: [], closed: true });
    expect(last?.headers.connection).toBe('close');
  }, 30_000);
});
