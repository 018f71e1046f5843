import { loggableUrl } from './loggable-url';

describe('loggableUrl', () => {
  it('keeps a path and the API query parameters as they are', () => {
    expect(loggableUrl('/v1/pets')).toBe('/v1/pets');
    expect(loggableUrl('/v1/pets?limit=2&status=sold&cursor=AbC_-1')).toBe('/v1/pets?limit=2&status=sold&cursor=AbC_-1');
  });

  it('never writes the value of another parameter, wherever a client put a key', () => {
    const key = 'pet_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const logged = loggableUrl(`/v1/pets?limit=1&access_token=${key}&x=${key}&${key}`);
    expect(logged).toBe('/v1/pets?limit=1&access_token=…&x=…&pet_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG=…');
    expect(loggableUrl(`/v1/pets?access_token=${key}`)).not.toContain('ABCDEFG');
  });

  it('bounds a 16 KB URL to a few hundred characters', () => {
    expect(loggableUrl(`/v1/${'a'.repeat(16_000)}`)).toHaveLength(201);
    const logged = loggableUrl(`/v1/pets?${Array.from({ length: 2000 }, (_, i) => `p${i}=${'x'.repeat(5)}`).join('&')}`);
    expect(logged.length).toBeLessThan(200);
    expect(logged.endsWith('&…')).toBe(true);
    expect(loggableUrl(`/v1/pets?cursor=${'c'.repeat(16_000)}`)).toHaveLength(`/v1/pets?cursor=`.length + 65);
  });
});
