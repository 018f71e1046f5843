import { ListPetsQuery, NewPet } from './pet.dto';
import { contractProblems } from './validation';

/** Each problem as the service's Error body `details` would name it: the field and its message. */
const named = (cls: new () => object, value: unknown) =>
  contractProblems(cls, value).map(({ property, constraints }) => [property, Object.values(constraints ?? {})[0]]);

describe('contractProblems', () => {
  it('names an unknown property of a body in the service words, once each', () => {
    const body = JSON.parse('{"name":"Rex","categoryId":1,"colour":"red","prototype":1,"toString":"x"}') as object;
    expect(named(NewPet, body)).toEqual([
      ['colour', 'property colour is not allowed'],
      ['prototype', 'property prototype is not allowed'],
      ['toString', 'property toString is not allowed'],
    ]);
  });

  it('ignores unknown query parameters, whatever their names, as the service does', () => {
    expect(contractProblems(ListPetsQuery, { limit: '5', toString: '1', constructor: '1', access_token: 'x' })).toEqual([]);
  });

  it('says a query parameter given twice is given twice', () => {
    expect(named(ListPetsQuery, { limit: ['5', '6'], status: ['sold', 'sold'] })).toEqual([
      ['limit', 'limit must be given once'],
      ['status', 'status must be given once'],
    ]);
  });
});
