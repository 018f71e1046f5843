import { Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoLoggerService } from './pino-logger';
import { RequestLogger } from './request-logger';

describe('RequestLogger (lines tied to a request, through Nest into pino)', () => {
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(() => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    Logger.overrideLogger(new PinoLoggerService(pino({ level: 'info' }, stream)));
  });
  afterAll(() => Logger.overrideLogger(new Logger()));
  beforeEach(() => lines.splice(0));

  it('writes a warning with its context and the request id as fields', () => {
    new RequestLogger('RateLimit').warn('rate limit not checked', 'r-7');
    expect(lines).toEqual([expect.objectContaining({ level: 40, context: 'RateLimit', requestId: 'r-7', msg: 'rate limit not checked' })]);
  });

  it('writes an error with its stack: the adapter @petstore/http-errors is handed', () => {
    new RequestLogger('Errors').error('GET /v1/pets failed', 'r-8', 'Error: boom\n    at x');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, context: 'Errors', requestId: 'r-8', stack: 'Error: boom\n    at x', msg: 'GET /v1/pets failed' }),
    ]);
  });
});
