import type { IncomingMessage } from 'node:http';
import { requestIdGenerator } from './request-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const withId = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;

describe('requestIdGenerator', () => {
  const generate = requestIdGenerator(['test-key-Vq7Lx2Rm9Tz4Kp8Wc3Nb6HjYs5Gd']);

  it('keeps an id of at most 128 safe characters', () => {
    expect(generate(withId('trace-1.A_b'))).toBe('trace-1.A_b');
    expect(generate(withId('a'.repeat(128)))).toBe('a'.repeat(128));
  });

  it('replaces a missing, long or unsafe id by a UUID', () => {
    for (const id of [undefined, '', 'a'.repeat(129), 'bad id', 'a/b']) expect(generate(withId(id))).toMatch(UUID);
  });

  it('replaces an id that is a key: it would be logged and echoed', () => {
    expect(generate(withId('pet_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'))).toMatch(UUID);
    expect(generate(withId('x-test-key-Vq7Lx2Rm9Tz4Kp8Wc3Nb6HjYs5Gd'))).toMatch(UUID);
  });
});
