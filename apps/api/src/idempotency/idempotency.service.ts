import { createHash } from 'node:crypto';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DomainError } from '@petstore/http-errors';
import { IdempotencyRecord, IdempotencyRepository } from './idempotency.repository';

export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
  }
}

export class RequestInProgressError extends DomainError {
  constructor() {
    super('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
  }
}

export type StoredResponse = Pick<IdempotencyRecord, 'body' | 'location'> & { statusCode: number };

@Injectable()
export class IdempotencyService implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly records: IdempotencyRepository) {}

  /** The answer to replay, a 422 or 409 as the draft says, or undefined when the key is free (again): run the request. */
  async recorded(apiKeyId: string, key: string, requestHash: string): Promise<StoredResponse | undefined> {
    const record = await this.records.read(apiKeyId, key);
    if (!record) return undefined;
    if (record.expired) {
      await this.records.forgetExpired(apiKeyId, key);
      return undefined;
    }
    if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
    if (record.statusCode === null) throw new RequestInProgressError();
    return { statusCode: record.statusCode, body: record.body, location: record.location };
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.records.sweep().catch(() => undefined), 3_600_000).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}

/** The same JSON value gives the same hash, whatever the order of its properties. */
export function hashRequestBody(body: unknown): string {
  const sorted = (_key: string, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value;
  return createHash('sha256')
    .update(JSON.stringify(body, sorted) ?? 'null')
    .digest('hex');
}
