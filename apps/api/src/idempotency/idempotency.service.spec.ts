import { Test } from '@nestjs/testing';
import { IdempotencyRecord, IdempotencyRepository } from './idempotency.repository';
import { IdempotencyKeyReusedError, IdempotencyService, RequestInProgressError, hashRequestBody } from './idempotency.service';

/** The idempotency_keys table in memory, keyed by `apiKeyId/key`, with the repository's methods. */
class FakeIdempotencyRepository implements Pick<IdempotencyRepository, keyof IdempotencyRepository> {
  readonly records = new Map<string, IdempotencyRecord>();
  sweeps = 0;

  async read(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.records.get(`${apiKeyId}/${key}`);
  }

  async forgetExpired(apiKeyId: string, key: string): Promise<void> {
    if (this.records.get(`${apiKeyId}/${key}`)?.expired) this.records.delete(`${apiKeyId}/${key}`);
  }

  async sweep(): Promise<void> {
    this.sweeps++;
  }
}

const ANSWERED: IdempotencyRecord = { requestHash: 'h', statusCode: 201, body: { id: 1 }, location: '/v1/pets/1', expired: false };

describe('IdempotencyService', () => {
  let service: IdempotencyService;
  let repository: FakeIdempotencyRepository;

  beforeEach(async () => {
    repository = new FakeIdempotencyRepository();
    const module = await Test.createTestingModule({
      providers: [IdempotencyService, { provide: IdempotencyRepository, useValue: repository }],
    }).compile();
    service = module.get(IdempotencyService);
  });

  it('says a key never used is free', async () => {
    expect(await service.recorded('1', 'k', 'h')).toBeUndefined();
  });

  it('replays the answer recorded for the same body', async () => {
    repository.records.set('1/k', ANSWERED);
    expect(await service.recorded('1', 'k', 'h')).toEqual({ statusCode: 201, body: { id: 1 }, location: '/v1/pets/1' });
    expect(await service.recorded('2', 'k', 'h')).toBeUndefined();
  });

  it('refuses the key with another body (422), or while its request has no answer yet (409)', async () => {
    repository.records.set('1/k', ANSWERED);
    await expect(service.recorded('1', 'k', 'other')).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    repository.records.set('1/k', { ...ANSWERED, statusCode: null });
    await expect(service.recorded('1', 'k', 'h')).rejects.toBeInstanceOf(RequestInProgressError);
  });

  it('forgets an expired record and says the key is free again', async () => {
    repository.records.set('1/k', { ...ANSWERED, requestHash: 'other', expired: true });
    expect(await service.recorded('1', 'k', 'h')).toBeUndefined();
    expect(repository.records.has('1/k')).toBe(false);
  });

  it('sweeps expired records every hour until shut down', async () => {
    jest.useFakeTimers();
    try {
      service.onModuleInit();
      jest.advanceTimersByTime(2 * 3_600_000);
      expect(repository.sweeps).toBe(2);
      service.onApplicationShutdown();
      jest.advanceTimersByTime(3_600_000);
      expect(repository.sweeps).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('hashRequestBody', () => {
  it('gives the same hash whatever the order of object properties, another for another value', () => {
    expect(hashRequestBody({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(hashRequestBody({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(hashRequestBody({ a: 1 })).not.toBe(hashRequestBody({ a: '1' }));
  });
});
