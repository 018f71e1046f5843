import { urlAttributes } from './tracing.sdk';

describe('urlAttributes', () => {
  it('keeps the path and the names of the query parameters, never their values', () => {
    expect(urlAttributes('/v1/pets?limit=2&cursor=abc.def&access_token=pet_secret')).toEqual({
      'url.path': '/v1/pets',
      'url.query': 'limit=REDACTED&cursor=REDACTED&access_token=REDACTED',
    });
    expect(urlAttributes('/v1/pets/7')).toEqual({ 'url.path': '/v1/pets/7' });
    expect(urlAttributes('/v1/pets?flag')).toEqual({ 'url.path': '/v1/pets', 'url.query': 'flag=REDACTED' });
  });

  it('redacts anything shaped like a key in the path and in parameter names', () => {
    const key = 'pet_Zq3xW9vK2mN8pL4rT6yU1iO0aS5dF7gH9jK3lZ8xC2v';
    expect(urlAttributes(`/v1/pets?${key}&access_token%3D${key}&limit=1;access_token=${key}`)).toEqual({
      'url.path': '/v1/pets',
      'url.query': 'pet_…=REDACTED&access_token%3Dpet_…=REDACTED&limit=REDACTED',
    });
    expect(urlAttributes(`/v1/pets/${key}`)).toEqual({ 'url.path': '/v1/pets/pet_…' });
    expect(urlAttributes(`/${'x'.repeat(180)}${key}`)['url.path']).not.toContain(key.slice(4, 20));
  });

  it('cuts a long path at 200 characters and writes at most 8 parameter names', () => {
    const attributes = urlAttributes(`/${'x'.repeat(500)}?${Array.from({ length: 20 }, (_, i) => `p${i}=v`).join('&')}`);
    expect(attributes['url.path']).toBe(`/${'x'.repeat(199)}…`);
    expect(attributes['url.query'].split('&')).toHaveLength(8);
    expect(attributes['url.query']).not.toContain('=v');
  });
});
