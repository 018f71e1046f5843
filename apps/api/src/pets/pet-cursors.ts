import { Inject, Injectable } from '@nestjs/common';
import { CURSOR_MESSAGE, PET_STATUSES, PetStatus } from '@petstore/contracts';
import { ValidationFailedError } from '@petstore/http-errors';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/config';

const VERSION = 1;
// version (1 byte) | status filter (1 byte: 0 = none, else 1 + index in PET_STATUSES) | last id (int64, big-endian)
const PAYLOAD_BYTES = 10;
// HMAC-SHA256 truncated to 128 bits: forging one takes 2^128 guesses.
const MAC_BYTES = 16;

/** Cursors of `GET /pets`: a page's last id and its status filter, signed, so a client can neither forge one nor reuse it with another filter. */
@Injectable()
export class PetCursors {
  constructor(@Inject(APP_CONFIG) private readonly config: { auth: Pick<AppConfig['auth'], 'cursorSecrets'> }) {}

  issue(lastId: string, status: PetStatus | undefined): string {
    const cursor = Buffer.allocUnsafe(PAYLOAD_BYTES + MAC_BYTES);
    cursor.writeUInt8(VERSION, 0);
    cursor.writeUInt8(statusCode(status), 1);
    cursor.writeBigInt64BE(BigInt(lastId), 2);
    sign(this.config.auth.cursorSecrets[0], cursor.subarray(0, PAYLOAD_BYTES)).copy(cursor, PAYLOAD_BYTES);
    return cursor.toString('base64url');
  }

  /** The last id a cursor carries, or a 400 naming `cursor` when we did not issue it for this filter. */
  read(cursor: string, status: PetStatus | undefined): string {
    const bytes = Buffer.from(cursor, 'base64url');
    const payload = bytes.subarray(0, PAYLOAD_BYTES);
    const valid =
      bytes.length === PAYLOAD_BYTES + MAC_BYTES &&
      bytes.toString('base64url') === cursor && // one spelling per cursor
      bytes.readUInt8(0) === VERSION &&
      bytes.readUInt8(1) === statusCode(status) &&
      this.config.auth.cursorSecrets.some((secret) => timingSafeEqual(sign(secret, payload), bytes.subarray(PAYLOAD_BYTES)));
    const lastId = valid ? bytes.readBigInt64BE(2) : 0n;
    if (lastId < 1n) throw new ValidationFailedError([{ field: 'cursor', message: CURSOR_MESSAGE }]);
    return lastId.toString();
  }
}

function statusCode(status: PetStatus | undefined): number {
  return status === undefined ? 0 : PET_STATUSES.indexOf(status) + 1;
}

function sign(secret: string, payload: Buffer): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES);
}
