import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/http-errors';
import { defer, lastValueFrom } from 'rxjs';
import type { Metrics } from '../observability/metrics';
import { IdempotencyInterceptor, claimOf } from './idempotency.interceptor';
import { IdempotencyKeyReusedError, IdempotencyService, StoredResponse, hashRequestBody } from './idempotency.service';

const KEY_TAKEN = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'idempotency_keys_pkey' });

describe('IdempotencyInterceptor', () => {
  let stored: jest.Mock<Promise<StoredResponse | undefined>>;
  let counted: string[];
  let interceptor: IdempotencyInterceptor;
  let sent: { status: number; headers: Record<string, string> };

  beforeEach(() => {
    stored = jest.fn();
    counted = [];
    const counter = (outcome: string) => ({ inc: () => counted.push(outcome) });
    const metrics = { idempotency: { replayed: counter('replayed'), keyReused: counter('key_reused'), inProgress: counter('in_progress') } };
    interceptor = new IdempotencyInterceptor({ recorded: stored } as unknown as IdempotencyService, metrics as unknown as Metrics);
    sent = { status: 0, headers: {} };
  });

  const request = (key: string | undefined) => ({
    headers: key === undefined ? {} : { 'idempotency-key': key },
    body: { name: 'Rex' },
    apiKey: { keyId: '7' },
  });
  const run = (req: object, handler: () => Promise<unknown>) => {
    const reply = {
      status: (code: number) => ((sent.status = code), reply),
      header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    };
    const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }) } as unknown as ExecutionContext;
    const next: CallHandler = { handle: () => defer(handler) };
    return lastValueFrom(interceptor.intercept(context, next));
  };

  it('runs a request without a key as it is, with no claim', async () => {
    const req = request(undefined);
    await expect(run(req, async () => 'ran')).resolves.toBe('ran');
    expect(claimOf(req as never)).toBeUndefined();
  });

  it('refuses a malformed key before running anything', () => {
    const handler = jest.fn();
    expect(() => run(request('a b'), handler)).toThrow(ValidationFailedError);
    expect(handler).not.toHaveBeenCalled();
  });

  it('runs the first request with a key under its claim, quoted or bare, hashing the body', async () => {
    for (const key of ['"k-1"', 'k-1']) {
      const req = request(key);
      await expect(run(req, async () => claimOf(req as never))).resolves.toEqual({
        apiKeyId: '7',
        key: 'k-1',
        requestHash: hashRequestBody({ name: 'Rex' }),
      });
    }
    expect(stored).not.toHaveBeenCalled();
  });

  it('replays the recorded answer when the key is taken', async () => {
    stored.mockResolvedValue({ statusCode: 201, body: { id: 1 }, location: '/v1/pets/1' });
    await expect(run(request('k'), () => Promise.reject(KEY_TAKEN))).resolves.toEqual({ id: 1 });
    expect(sent).toEqual({ status: 201, headers: { 'idempotent-replayed': 'true', location: '/v1/pets/1' } });
    expect(stored).toHaveBeenCalledWith('7', 'k', hashRequestBody({ name: 'Rex' }));
    expect(counted).toEqual(['replayed']);
  });

  it('runs again once an expired record is forgotten', async () => {
    stored.mockResolvedValue(undefined);
    let attempts = 0;
    await expect(run(request('k'), () => (++attempts === 1 ? Promise.reject(KEY_TAKEN) : Promise.resolve({ id: 1 })))).resolves.toEqual({ id: 1 });
    expect(attempts).toBe(2);
  });

  it('counts a key reused with another body', async () => {
    stored.mockRejectedValue(new IdempotencyKeyReusedError());
    await expect(run(request('k'), () => Promise.reject(KEY_TAKEN))).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(counted).toEqual(['key_reused']);
  });
});
