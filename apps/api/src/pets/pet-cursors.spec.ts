import { ValidationFailedError } from '@petstore/http-errors';
import { createHmac } from 'node:crypto';
import { ConfigError, loadConfig } from '../config/config';
import { PetCursors } from './pet-cursors';

const OLD = 'old-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const NEW = 'new-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe('PetCursors', () => {
  it('reads back the last id and filter it issued, for ids up to the int64 maximum', () => {
    const cursors = new PetCursors({ auth: { cursorSecrets: [NEW] } });
    for (const id of ['1', '42', '9223372036854775807']) {
      expect(cursors.read(cursors.issue(id, 'sold'), 'sold')).toBe(id);
      expect(cursors.read(cursors.issue(id, undefined), undefined)).toBe(id);
    }
  });

  it('signs with HMAC-SHA256 truncated to 128 bits, for secrets of any length (cursors issued before stay valid)', () => {
    for (const secret of [NEW, 'k'.repeat(64), 'k'.repeat(65), `${NEW}${'é'.repeat(100)}`]) {
      for (const id of ['1', '5000', '9223372036854775807']) {
        const bytes = Buffer.from(new PetCursors({ auth: { cursorSecrets: [secret] } }).issue(id, 'pending'), 'base64url');
        const expected = createHmac('sha256', secret).update(bytes.subarray(0, 10)).digest().subarray(0, 16);
        expect(bytes.subarray(10).toString('hex')).toBe(expected.toString('hex'));
      }
    }
  });

  it('accepts cursors signed with a retired secret during rotation, and refuses them after', () => {
    const issuedBefore = new PetCursors({ auth: { cursorSecrets: [OLD] } }).issue('7', undefined);
    expect(new PetCursors({ auth: { cursorSecrets: [NEW, OLD] } }).read(issuedBefore, undefined)).toBe('7');
    expect(() => new PetCursors({ auth: { cursorSecrets: [NEW] } }).read(issuedBefore, undefined)).toThrow(ValidationFailedError);
  });

  it('requires CURSOR_SECRET in production, of at least 32 characters', () => {
    // Production refuses guessable secrets: random ones here.
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/petstore',
      API_KEYS: 'Hk4mQ9xT2vN7bR1pW6sZ3cL8fJ0dY5gA',
      METRICS_ENABLED: 'false',
    };
    const [strongNew, strongOld] = ['Qx7fN2pL9vR4tW8zK3mB6cY1hD5gJ0sA', 'Vd3kP8wE1rT6yU9iO2aS5fG7hJ4lZ0xC'];
    expect(loadConfig(production).productionDemands).toEqual([expect.stringMatching(/^CURSOR_SECRET is required in production/)]);
    expect(loadConfig(production).auth.cursorSecrets).toEqual([]);
    expect(() => loadConfig({ ...production, CURSOR_SECRET: 'short' })).toThrow(ConfigError);
    expect(loadConfig({ ...production, CURSOR_SECRET: `${strongNew}, ${strongOld}` }).auth.cursorSecrets).toEqual([strongNew, strongOld]);
    expect(loadConfig({ NODE_ENV: 'development' }).auth.cursorSecrets).toHaveLength(1);
  });
});
