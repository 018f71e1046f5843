import { UNMATCHED, methodLabel, routeLabel } from './route-label';

describe('routeLabel', () => {
  it('spells path parameters as the OpenAPI document does', () => {
    expect(routeLabel('/v1/pets/:petId')).toBe('/v1/pets/{petId}');
    expect(routeLabel('/v1/pets')).toBe('/v1/pets');
    expect(routeLabel('/docs/*')).toBe('/docs/*');
  });

  it('gives every request without a matched route one label', () => {
    expect(routeLabel(undefined)).toBe(UNMATCHED);
    expect(routeLabel('')).toBe(UNMATCHED);
  });
});

describe('methodLabel', () => {
  it('keeps the usual methods and folds the rest into one label', () => {
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map(methodLabel)).toEqual([
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
    expect(['PROPFIND', 'MKCOL', 'get'].map(methodLabel)).toEqual(['other', 'other', 'other']);
  });
});
