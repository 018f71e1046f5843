import { readGroup } from './read-group';
import { EachEntry, IntegerIn } from './rules';
import { Variable, parseInteger, parseList, variablesOf } from './variable';

class Sample {
  @Variable({ name: 'SAMPLE_SIZE', parse: parseInteger, description: 'a size' })
  @IntegerIn(1, 9)
  size = 3;

  @Variable({ name: 'SAMPLE_NAMES', parse: parseList, usedBy: ['tool'], example: 'a,b', description: 'names' })
  @EachEntry((name, index) => (name.length > 1 ? `entry ${index + 1} must be one letter` : undefined))
  names: string[] = [];
}

describe('a configuration group', () => {
  it('documents each variable with the default its property starts with', () => {
    expect(variablesOf(Sample)).toEqual([
      { name: 'SAMPLE_SIZE', default: '3', description: 'a size', usedBy: ['service'] },
      { name: 'SAMPLE_NAMES', default: undefined, example: 'a,b', description: 'names', usedBy: ['tool'] },
    ]);
  });

  it('reads its variables only, an empty one as unset, and reports every problem under its variable', () => {
    expect(readGroup(Sample, { SAMPLE_SIZE: '', SAMPLE_NAMES: ' a , b ,,', OTHER: 'x' }, [])).toEqual({ size: 3, names: ['a', 'b'] });
    const problems: string[] = [];
    readGroup(Sample, { SAMPLE_SIZE: '12', SAMPLE_NAMES: 'ab,c,de' }, problems);
    expect(problems).toEqual([
      'SAMPLE_SIZE must be an integer from 1 to 9 (got "12")',
      'SAMPLE_NAMES entry 1 must be one letter',
      'SAMPLE_NAMES entry 3 must be one letter',
    ]);
  });
});
