import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoLoggerService } from './pino-logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, service: new PinoLoggerService(pino({ level: 'info' }, stream)) };
}

describe('PinoLoggerService (Nest Logger → pino)', () => {
  it('writes the message with the context Nest passes last', () => {
    const { lines, service } = capture();
    service.log('started', 'Main');
    expect(lines).toEqual([expect.objectContaining({ level: 30, context: 'Main', msg: 'started' })]);
  });

  it('keeps the fields of an object message, request id included, and the stack of an error', () => {
    const { lines, service } = capture();
    service.error({ msg: 'GET /v1/pets failed', requestId: 'r-1' }, 'Error: boom\n    at x', 'Errors');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, context: 'Errors', requestId: 'r-1', stack: 'Error: boom\n    at x', msg: 'GET /v1/pets failed' }),
    ]);
  });

  it("drops Nest's controller headings, which put the global prefix on excluded routes, and keeps the real route lines", () => {
    const { lines, service } = capture();
    service.log('HealthController {/v1/health}:', 'RoutesResolver');
    service.log('Mapped {/health/live, GET} route', 'RouterExplorer');
    expect(lines).toEqual([expect.objectContaining({ context: 'RouterExplorer', msg: 'Mapped {/health/live, GET} route' })]);
  });

  it('writes nothing below the configured level', () => {
    const { lines, service } = capture();
    service.debug('detail', 'Main');
    service.verbose('more detail', 'Main');
    expect(lines).toEqual([]);
  });
});
