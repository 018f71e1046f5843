import { StubEdge, rawRequest } from './edge-stub';

/*
 * What the edge (deploy/haproxy/haproxy.cfg, as shipped, or PETSTORE_HAPROXY_CFG) lets reach an instance, in front
 * of stand-in instances that record what they receive (edge-stub.ts). The floods in front of the service are edge.cluster-spec.ts.
 */

describe('the edge decides alone what reaches an instance: bodies, X-Forwarded-For (test:cluster)', () => {
  let edge: StubEdge;
  beforeAll(async () => (edge = await StubEdge.start()), 30_000);
  afterAll(() => edge?.stop());
  beforeEach(() => (edge.received.length = 0));

  const bodyNotAllowed = { code: 'malformed_request', message: 'A request body is accepted on POST only', status: 400 };
  const tooLarge = { code: 'payload_too_large', message: 'The request body is larger than 64 KiB', status: 413 };

  it('refuses a body on a GET, with a length or chunked, before any byte reaches an instance', async () => {
    const withLength = await rawRequest(edge.port, 'GET /v1/pets HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\n\r\nhello');
    const endless = await rawRequest(edge.port, 'GET /v1/pets HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n', { streamMs: 3_000 });
    console.log(`GET with an endless chunked body: ${endless.status} after ${(endless.written / 1e6).toFixed(1)} MB written in at most 3 s`);
    expect([withLength.status, withLength.body]).toEqual([400, bodyNotAllowed]);
    // The edge answers on the head and closes without reading on: a client still writing may get the
    // reset before the answer (status 0), but never an instance, nor more than its socket buffers take.
    if (endless.status !== 0) expect([endless.status, endless.body]).toEqual([400, bodyNotAllowed]);
    expect(endless.written).toBeLessThan(16e6);
    expect(edge.received).toEqual([]);
  });

  it('refuses an announced POST body over 64 KiB with a key, and passes one of 64 KiB', async () => {
    const head = 'POST /v1/pets HTTP/1.1\r\nhost: x\r\nauthorization: Bearer some-key\r\ncontent-type: application/json\r\n';
    const big = Buffer.alloc(65_537, ' ');
    const announced = await rawRequest(edge.port, `${head}content-length: ${big.length}\r\n\r\n`, { body: big });
    expect([announced.status, announced.body]).toEqual([413, tooLarge]);
    expect(edge.received).toEqual([]);
    const limit = Buffer.alloc(65_536, ' ');
    const whole = await rawRequest(edge.port, `${head}connection: close\r\ncontent-length: ${limit.length}\r\n\r\n`, { body: limit });
    expect(whole.status).toBe(200);
    expect(edge.received.map((r) => r.bodyBytes)).toEqual([65_536]);
  });

  it('closes a keep-alive connection idle for 5 s, and says so, whatever the instances keep', async () => {
    const answer = await rawRequest(edge.port, 'GET /v1/pets HTTP/1.1\r\nhost: x\r\n\r\n', { waitMs: 12_000 });
    console.log(`an idle keep-alive connection was closed ${Math.round(answer.closedAfterMs)} ms after its answer`);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatch(/^keep-alive: timeout=4$/im);
    expect(answer.closedAfterMs).toBeLessThan(6_000);
  });

  it('replaces X-Forwarded-For with the connection source', async () => {
    const answer = await rawRequest(edge.port, 'GET /v1/pets HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-forwarded-for: 198.51.100.7\r\n\r\n', {
      localAddress: '127.0.0.3',
    });
    expect(answer.body).toEqual({ xff: '127.0.0.3' });
    expect(edge.received.map((r) => r.headers['x-forwarded-for'])).toEqual(['127.0.0.3']);
  });
});
