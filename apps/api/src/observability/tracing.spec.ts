import { urlAttributes } from './tracing';

describe('urlAttributes', () => {
  it('keeps the path and the names of the query parameters, never their values', () => {
    expect(urlAttributes('/v1/pets?limit=2&cursor=abc.def&access_token=pet_secret')).toEqual({
      'url.path': '/v1/pets',
      'url.query': 'limit=REDACTED&cursor=REDACTED&access_token=REDACTED',
    });
    expect(urlAttributes('/v1/pets/7')).toEqual({ 'url.path': '/v1/pets/7' });
    expect(urlAttributes('/v1/pets?flag')).toEqual({ 'url.path': '/v1/pets', 'url.query': 'flag=REDACTED' });
  });

  it('cuts a long path at 200 characters and writes at most 8 parameter names', () => {
    const attributes = urlAttributes(`/${'x'.repeat(500)}?${Array.from({ length: 20 }, (_, i) => `p${i}=v`).join('&')}`);
    expect(attributes['url.path']).toBe(`/${'x'.repeat(199)}…`);
    expect(attributes['url.query'].split('&')).toHaveLength(8);
    expect(attributes['url.query']).not.toContain('=v');
  });
});
