import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { sleep } from '../support/load';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { AUTH, TEST_API_KEY } from '../support/test-key';

jest.setTimeout(120_000);

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number>;
  serviceName: string;
}

const SERVER = 2;
const CLIENT = 3;
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const traceparent = (trace: string, parent = PARENT) => `00-${trace}-${parent}-01`;

/** A small OTLP/HTTP receiver (JSON, as @opentelemetry/exporter-trace-otlp-http sends it). */
class Receiver {
  readonly bodies: string[] = [];
  readonly contentTypes: string[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (request.method === 'POST' && request.url === '/v1/traces') {
          this.bodies.push(body);
          this.contentTypes.push(String(request.headers['content-type']));
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  spans(): Span[] {
    return this.bodies.flatMap((body) =>
      JSON.parse(body).resourceSpans.flatMap((resource: any) => {
        const serviceName = resource.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
        return resource.scopeSpans.flatMap((scope: any) =>
          scope.spans.map((span: any) => ({
            ...span,
            serviceName,
            attributes: Object.fromEntries(span.attributes.map((a: any) => [a.key, a.value.stringValue ?? Number(a.value.intValue)])),
          })),
        );
      }),
    );
  }

  /** Waits until the spans of a trace include one named `name`. */
  async find(traceId: string, name: string): Promise<Span[]> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const spans = this.spans().filter((span) => span.traceId === traceId);
      if (spans.some((span) => span.name === name)) return spans;
      await sleep(100);
    }
    throw new Error(`no span ${name} in trace ${traceId}: ${JSON.stringify(this.spans().map((s) => [s.traceId, s.name]))}`);
  }

  async stop(): Promise<void> {
    this.server?.close();
  }
}

describe('OpenTelemetry traces (built service, OTLP/HTTP receiver in the test)', () => {
  const receiver = new Receiver();
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let service: ServiceProcess;

  beforeAll(async () => {
    const endpoint = await receiver.start();
    database = await createServiceDatabase();
    service = await startServiceProcess({
      ...database.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: 'petstore-e2e',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 60000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    await receiver.stop();
  });

  const send = (path: string, init: RequestInit = {}) => fetch(service.baseUrl + path, init);

  it('sends one server span per request, child of the caller, named with the route template, with a child span per statement', async () => {
    const created = (await (
      await send('/v1/pets', {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': 'idem-e2e-42' },
        body: JSON.stringify({ name: 'Zebulon-7781', categoryId: 3 }),
      })
    ).json()) as { id: number };
    const response = await send(`/v1/pets/${created.id}?access_token=${TEST_API_KEY}`, { headers: { ...AUTH, traceparent: traceparent(TRACE) } });
    expect(response.status).toBe(200);

    const spans = await receiver.find(TRACE, 'GET /v1/pets/{petId}');
    const server = spans.find((span) => span.kind === SERVER)!;
    expect(server).toMatchObject({ name: 'GET /v1/pets/{petId}', parentSpanId: PARENT, serviceName: 'petstore-e2e' });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/v1/pets/{petId}',
      'http.response.status_code': 200,
      'url.path': `/v1/pets/${created.id}`,
      'url.query': 'access_token=REDACTED',
    });
    // The pg instrumentation's span: its own name and connection attributes, the parameterised text, no values.
    const statement = spans.find((span) => span.kind === CLIENT)!;
    expect(statement).toMatchObject({ name: expect.stringMatching(/^pg\.query:/), parentSpanId: server.spanId, serviceName: 'petstore-e2e' });
    expect(statement.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.query.text': expect.stringMatching(/^\s*SELECT\b[\s\S]*\bFROM\W+pets\b[\s\S]*\$1/),
    });
    expect(Object.keys(statement.attributes).filter((name) => name.includes('values'))).toEqual([]);
    expect(spans).toHaveLength(2);
    expect(receiver.contentTypes[0]).toBe('application/json');
  });

  it('starts a new trace without a traceparent, names unknown routes by method only, and traces no probe or scrape', async () => {
    const trace = '0af7651916cd43dd8448eb211c80319c';
    await send('/v1/pets?limit=1&cursor=Qm9ndXNDdXJzb3I', { headers: { ...AUTH, traceparent: traceparent(trace) } });
    await send('/nowhere/12345', { headers: { traceparent: traceparent(trace, 'b7ad6b7169203331') } });
    await send('/health/live', { headers: { traceparent: traceparent(trace, 'c7ad6b7169203331') } });
    await send('/metrics', { headers: { traceparent: traceparent(trace, 'd7ad6b7169203331') } });
    const spans = await receiver.find(trace, 'GET');
    const servers = spans.filter((span) => span.kind === SERVER);
    expect(servers.map((span) => [span.name, span.attributes['http.response.status_code'], span.attributes['url.query']])).toEqual(
      expect.arrayContaining([
        ['GET /v1/pets', 400, 'limit=REDACTED&cursor=REDACTED'],
        ['GET', 404, undefined],
      ]),
    );
    await sleep(500);
    expect(receiver.spans().filter((span) => span.traceId === trace && span.kind === SERVER)).toHaveLength(2);

    await send('/v1/pets', { headers: AUTH });
    const fresh = await (async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const found = receiver.spans().find((span) => span.kind === SERVER && span.name === 'GET /v1/pets' && span.traceId !== trace);
        if (found) return found;
        await sleep(100);
      }
      throw new Error('no span for the request without traceparent');
    })();
    expect(fresh.parentSpanId ?? '').toBe('');
  });

  it('writes the trace id on the request log line', async () => {
    const trace = 'aaf7651916cd43dd8448eb211c80319d';
    await send('/v1/pets', { headers: { ...AUTH, traceparent: traceparent(trace), 'x-request-id': 'traced-1' } });
    let line: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 40 && !line; attempt++) {
      line = service.lines
        .filter((l) => l.includes('"traced-1"'))
        .map((l) => JSON.parse(l))
        .find((l) => l.res);
      if (!line) await sleep(50);
    }
    expect(line).toMatchObject({ requestId: 'traced-1', route: '/v1/pets', traceId: trace });
  });

  it('puts no key, no body value and no query value in any span', async () => {
    // A key where no key belongs: as a parameter name, encoded, in a path.
    const key = 'pet_Tr7xW9vK2mN8pL4rT6yU1iO0aS5dF7gH9jK3lZ8xC2v';
    for (const url of [`/v1/pets?${key}`, `/v1/pets?access_token%3D${key}`, `/v1/pets/${key}`, `/${key}`]) await send(url, { headers: AUTH });
    await sleep(300);
    const everything = receiver.bodies.join('\n');
    for (const secret of [TEST_API_KEY, 'Zebulon-7781', 'idem-e2e-42', 'Qm9ndXNDdXJzb3I', key.slice(4)])
      expect(everything.includes(secret) ? secret : undefined).toBeUndefined();
    for (const span of receiver.spans()) {
      const query = span.attributes['url.query'];
      if (query !== undefined) expect(String(query)).toMatch(/^[^=&]+=REDACTED(&[^=&]+=REDACTED)*$/);
    }
  });
});
