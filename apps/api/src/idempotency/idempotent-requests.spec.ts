import { HttpAdapterHost } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Metrics } from '../observability/metrics';
import { IdempotencyKeyReusedError, IdempotencyService, StoredResponse } from './idempotency.service';
import { IdempotentRequests } from './idempotent-requests';
import { idempotencyClaim } from './idempotent.decorator';

const KEY_TAKEN = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'idempotency_keys_pkey' });

describe('IdempotentRequests', () => {
  let requests: IdempotentRequests;
  let stored: jest.Mock<Promise<StoredResponse | undefined>>;
  let counted: string[];

  beforeEach(async () => {
    stored = jest.fn();
    counted = [];
    const counter = (outcome: string) => ({ inc: () => counted.push(outcome) });
    const module = await Test.createTestingModule({
      providers: [
        IdempotentRequests,
        { provide: IdempotencyService, useValue: { recorded: stored } },
        {
          provide: Metrics,
          useValue: { idempotency: { replayed: counter('replayed'), keyReused: counter('key_reused'), inProgress: counter('in_progress') } },
        },
        { provide: HttpAdapterHost, useValue: { httpAdapter: { getInstance: () => ({}) } } },
      ],
    }).compile();
    requests = module.get(IdempotentRequests);
  });

  const request = (key: string | undefined) =>
    ({ headers: key === undefined ? {} : { 'idempotency-key': key }, body: { name: 'Rex' }, apiKey: { keyId: '7' } }) as unknown as FastifyRequest;
  const reply = () => {
    const sent = { status: 0, headers: {} as Record<string, string> };
    const fastifyReply = {
      status: (code: number) => ((sent.status = code), fastifyReply),
      header: (name: string, value: string) => ((sent.headers[name] = value), fastifyReply),
    };
    return { sent, reply: fastifyReply as unknown as FastifyReply };
  };
  /** An operation that stores its effect under the claim, as a route's service does. */
  const recording = async () => {
    idempotencyClaim()!.recorded = true;
    return { id: 1 };
  };

  it('runs a request without a key as it is', async () => {
    await expect(requests.run(request(undefined), reply().reply, async () => 'ran')).resolves.toBe('ran');
  });

  it('refuses a malformed key before running anything', async () => {
    const operation = jest.fn();
    await expect(requests.run(request('a b'), reply().reply, operation)).rejects.toBeInstanceOf(ValidationFailedError);
    expect(operation).not.toHaveBeenCalled();
  });

  it('runs the first request with a key under its claim, quoted or bare', async () => {
    await expect(requests.run(request('"k-1"'), reply().reply, recording)).resolves.toEqual({ id: 1 });
    await expect(requests.run(request('k-1'), reply().reply, recording)).resolves.toEqual({ id: 1 });
    expect(stored).not.toHaveBeenCalled();
  });

  it('fails a route that ran without recording its answer', async () => {
    await expect(requests.run(request('k'), reply().reply, async () => 1)).rejects.toThrow('recordingAnswer');
  });

  it('replays the recorded answer when the key is taken', async () => {
    stored.mockResolvedValue({ statusCode: 201, body: { id: 1 }, location: '/v1/pets/1' });
    const { sent, reply: fastifyReply } = reply();
    const body = await requests.run(request('k'), fastifyReply, () => Promise.reject(KEY_TAKEN));
    expect(body).toEqual({ id: 1 });
    expect(sent).toEqual({ status: 201, headers: { 'idempotent-replayed': 'true', location: '/v1/pets/1' } });
    expect(stored).toHaveBeenCalledWith('7', 'k', expect.any(String));
    expect(counted).toEqual(['replayed']);
  });

  it('runs again once an expired record is forgotten', async () => {
    stored.mockResolvedValue(undefined);
    let attempts = 0;
    const body = await requests.run(request('k'), reply().reply, () => (++attempts === 1 ? Promise.reject(KEY_TAKEN) : recording()));
    expect(body).toEqual({ id: 1 });
    expect(attempts).toBe(2);
  });

  it('counts a key reused with another body', async () => {
    stored.mockRejectedValue(new IdempotencyKeyReusedError());
    await expect(requests.run(request('k'), reply().reply, () => Promise.reject(KEY_TAKEN))).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(counted).toEqual(['key_reused']);
  });
});
