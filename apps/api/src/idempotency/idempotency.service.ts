import { createHash } from 'node:crypto';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DomainError } from '@petstore/http-errors';
import { IdempotencyRepository } from './idempotency.repository';

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

export interface StoredResponse {
  statusCode: number;
  body: unknown;
  location: string | null;
}

/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header) in PostgreSQL, scoped to the
 * API key. A keyed request's answer is recorded by the statement that stores its effect (see
 * `recordingAnswer`); this reads what a key already holds.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly records: IdempotencyRepository) {}

  /**
   * The answer to replay for a key that is taken; throws 422 or 409 as the draft says. Undefined when
   * the key is free again (never recorded, or its record expired and was removed): run the request.
   */
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
    this.sweeper = setInterval(() => {
      this.records.sweep().catch(() => undefined);
    }, 3_600_000);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}

/** The same JSON value gives the same hash, whatever the order of its object properties. */
export function hashRequestBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
