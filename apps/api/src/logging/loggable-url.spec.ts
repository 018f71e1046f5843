import { loggableUrl, logQueryValues } from './loggable-url';
import { keyShapedUrls } from '../../../../test/support/key-shaped-urls';

describe('loggableUrl', () => {
  beforeAll(() => logQueryValues(['limit', 'status', 'cursor']));

  it('keeps a path and the API query parameters as they are', () => {
    expect(loggableUrl('/v1/pets')).toBe('/v1/pets');
    expect(loggableUrl('/v1/pets?limit=2&status=sold&cursor=AbC_-1')).toBe('/v1/pets?limit=2&status=sold&cursor=AbC_-1');
  });

  it('never writes the value of another parameter, wherever a client put a key', () => {
    const key = 'pet_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const logged = loggableUrl(`/v1/pets?limit=1&access_token=${key}&x=${key}&${key}`);
    expect(logged).toBe('/v1/pets?limit=1&access_token=…&x=…&pet_…=…');
    expect(loggableUrl(`/v1/pets?access_token=${key}`)).not.toContain('ABCDEFG');
  });

  it('redacts anything shaped like a key wherever it is: a parameter name, an encoded name, a kept value, the path', () => {
    const key = 'pet_Zq3xW9vK2mN8pL4rT6yU1iO0aS5dF7gH9jK3lZ8xC2v';
    const urls = [
      ...keyShapedUrls(key),
      `/v1/pets?limit=1&status=${key.slice(0, 20)}%${key.charCodeAt(20).toString(16)}${key.slice(21)}`,
      `/${'x'.repeat(180)}${key}`,
    ];
    for (const url of urls) {
      const logged = loggableUrl(url);
      expect({ url, leaked: logged.includes(key.slice(4, 24)) || logged.includes(key.slice(24)) }).toEqual({ url, leaked: false });
    }
    expect(loggableUrl(`/v1/pets?cursor=${key}`)).toBe('/v1/pets?cursor=pet_…');
    expect(loggableUrl(`/v1/pets/${key}`)).toBe('/v1/pets/pet_…');
    expect(loggableUrl(`/v1/pets?access_token%3D${key}`)).toBe('/v1/pets?access_token%3Dpet_…=…');
  });

  it('bounds a 16 KB URL to a few hundred characters', () => {
    expect(loggableUrl(`/v1/${'a'.repeat(16_000)}`)).toHaveLength(201);
    const logged = loggableUrl(`/v1/pets?${Array.from({ length: 2000 }, (_, i) => `p${i}=${'x'.repeat(5)}`).join('&')}`);
    expect(logged.length).toBeLessThan(200);
    expect(logged.endsWith('&…')).toBe(true);
    expect(loggableUrl(`/v1/pets?cursor=${'c'.repeat(16_000)}`)).toHaveLength(`/v1/pets?cursor=`.length + 65);
  });
});
