import { carriesToken } from './metrics-token';

const TOKEN = 'metrics-0123456789abcdefghijklmnopqrstuv';

describe('carriesToken', () => {
  it('accepts the token as a bearer token, the scheme in any case', () => {
    expect(carriesToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(carriesToken(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
  });

  it('refuses no header, another scheme, another token, a prefix or an extension of it', () => {
    expect(carriesToken(undefined, TOKEN)).toBe(false);
    expect(carriesToken('', TOKEN)).toBe(false);
    expect(carriesToken(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(carriesToken(TOKEN, TOKEN)).toBe(false);
    expect(carriesToken(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(carriesToken(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(carriesToken(`Bearer ${TOKEN} ${TOKEN}`, TOKEN)).toBe(false);
  });
});
