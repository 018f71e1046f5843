import type { ArgumentsHost } from '@nestjs/common';
import type { ErrorLogger } from './global-exception.filter';
import { DomainError } from './domain-error';
import { GlobalExceptionFilter } from './global-exception.filter';

/** Just enough of Fastify's request and reply for the filter. */
function host(request: object) {
  const sent: Array<{ status: number; body: string }> = [];
  let status = 0;
  const reply = {
    sent: false,
    status: (code: number) => ((status = code), reply),
    headers: () => reply,
    header: () => reply,
    send: (body: string) => sent.push({ status, body }),
  };
  const args = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  return { args, sent };
}

describe('GlobalExceptionFilter: logs through the port it is handed', () => {
  const request = { id: 'req-1', method: 'POST', url: '/v1/pets?access_token=secret', routeOptions: { url: '/v1/pets' } };

  it('hands a fault of ours to the port with the route, the request id and the stack, and sends internal_error', () => {
    const logged: Parameters<ErrorLogger['error']>[] = [];
    const { args, sent } = host(request);
    const fault = new Error('boom');
    new GlobalExceptionFilter({ error: (...line) => logged.push(line) }).catch(fault, args);
    expect(logged).toEqual([['POST /v1/pets failed', 'req-1', fault.stack]]);
    expect(sent).toEqual([{ status: 500, body: expect.stringContaining('"internal_error"') }]);
  });

  it('hands a 503 the database caused to the port with its reason, without a stack', () => {
    const logged: Parameters<ErrorLogger['error']>[] = [];
    const { args, sent } = host(request);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    new GlobalExceptionFilter({ error: (...line) => logged.push(line) }).catch(refused, args);
    expect(logged).toEqual([['POST /v1/pets failed: connect ECONNREFUSED 127.0.0.1:5432', 'req-1']]);
    expect(sent[0].status).toBe(503);
  });

  it('logs nothing for an error the client caused, nor for a designed 503 (readiness while draining)', () => {
    const logged: unknown[] = [];
    const { args, sent } = host(request);
    const filter = new GlobalExceptionFilter({ error: (...line) => logged.push(line) });
    filter.catch(new DomainError('not_found', 'No pet with id 9'), args);
    filter.catch(new DomainError('service_unavailable', 'Not ready: shutting down'), args);
    expect(logged).toEqual([]);
    expect(sent.map((answer) => answer.status)).toEqual([404, 503]);
  });
});
