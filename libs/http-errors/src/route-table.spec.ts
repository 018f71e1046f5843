import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const routes = new RouteTable();
  routes.add(['GET', 'HEAD'], '/v1/pets');
  routes.add('post', '/v1/pets');
  routes.add('GET', '/v1/pets/:petId');
  routes.add('GET', '/v1/pets/:petId'); // added twice: no error
  routes.add('HEAD', '/v1/pets/:petId');
  routes.add('SEARCH', '/v1/pets'); // a method outside the table is ignored
  routes.add('GET', '/v1/store/orders');

  it('lists the methods of a path, in a fixed order', () => {
    expect(routes.allowedMethods('/v1/pets')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedMethods('/v1/store/orders')).toEqual(['GET']);
  });

  it('matches parameters, whatever their value', () => {
    expect(routes.allowedMethods('/v1/pets/12')).toEqual(['GET', 'HEAD']);
    expect(routes.allowedMethods('/v1/pets/not-a-number')).toEqual(['GET', 'HEAD']);
    expect(routes.allowedMethods(`/v1/pets/${'9'.repeat(1000)}`)).toEqual(['GET', 'HEAD']);
  });

  it('ignores the query string', () => {
    expect(routes.allowedMethods('/v1/pets?limit=5')).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('is empty for an unknown path, including one without /v1 or with an empty parameter', () => {
    expect(routes.allowedMethods('/pets')).toEqual([]);
    expect(routes.allowedMethods('/v1/pets/')).toEqual([]);
    expect(routes.allowedMethods('/v1/pets/1/owner')).toEqual([]);
    expect(routes.allowedMethods('/')).toEqual([]);
  });
});
