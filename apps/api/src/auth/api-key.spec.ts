import { API_KEY_FORMAT, generateApiKey, hashApiKey, parseScopes } from './api-key';

describe('API key format', () => {
  it('generates pet_ + 43 base64url characters, different every time', () => {
    const keys = Array.from({ length: 50 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(API_KEY_FORMAT);
    expect(new Set(keys).size).toBe(50);
  });

  it('hashes to the hex SHA-256 digest', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseScopes', () => {
  it('gives every scope when none is named', () => {
    expect(parseScopes(undefined)).toEqual(['pets:read', 'pets:write', 'orders:read']);
  });

  it('refuses a list that names no scope: an empty list is a mistake, never every scope', () => {
    for (const raw of ['', ',', ' ', ' , '])
      expect(() => parseScopes(raw)).toThrow('the list names no scope: the scopes are pets:read, pets:write, orders:read');
  });

  it('keeps the named scopes once each, in the canonical order', () => {
    expect(parseScopes('orders:read, pets:read,orders:read')).toEqual(['pets:read', 'orders:read']);
  });

  it('refuses an unknown scope, naming it and the known ones', () => {
    expect(() => parseScopes('pets:read,pets:delete')).toThrow('Unknown scope pets:delete: the scopes are pets:read, pets:write, orders:read');
  });
});
