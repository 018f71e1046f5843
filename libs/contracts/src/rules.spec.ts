import { CATEGORY_ID_MAX } from './limits';
import { PET_NAME_PATTERN, categoryIdProblem, petNameProblem } from './rules';

describe('petNameProblem', () => {
  it.each([
    ['a single character', 'R'],
    ['255 characters', 'x'.repeat(255)],
    ['255 astral characters (510 UTF-16 units)', '🐶'.repeat(255)],
    ['surrounding spaces', '  Rex  '],
    ['C1 characters, which are not in the refused set', 'R\u0085ex'],
  ])('accepts %s', (_case, name) => {
    expect(petNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['undefined', undefined, 'is required'],
    ['a number', 5, 'must be a string'],
    ['null', null, 'must be a string'],
    ['an array', ['Rex'], 'must be a string'],
    ['the empty string', '', 'must be 1 to 255 characters long'],
    ['256 characters', 'x'.repeat(256), 'must be 1 to 255 characters long'],
    ['256 astral characters', '🐶'.repeat(256), 'must be 1 to 255 characters long'],
    ['spaces only', '   ', 'must not be blank'],
    ['Unicode spaces only', '\u00a0\u2003\u3000', 'must not be blank'],
    ["NEXT LINE only (Unicode White_Space, not in JavaScript's \\s)", '\u0085', 'must not be blank'],
    ['NEXT LINE among spaces', ' \u0085\u2028 ', 'must not be blank'],
    ['a NUL', 'a\u0000b', 'must not contain control characters (U+0000-U+001F, U+007F)'],
    ['a newline', 'a\nb', 'must not contain control characters (U+0000-U+001F, U+007F)'],
    ['U+001F', 'a\u001f', 'must not contain control characters (U+0000-U+001F, U+007F)'],
    ['DEL', '\u007fa', 'must not contain control characters (U+0000-U+001F, U+007F)'],
    ['a lone high surrogate', 'a\ud800', 'must be valid Unicode text'],
    ['a lone low surrogate', '\udc00a', 'must be valid Unicode text'],
    ['reversed surrogates', '\udc00\ud800', 'must be valid Unicode text'],
  ])('refuses %s', (_case, name, problem) => {
    expect(petNameProblem(name)).toBe(problem);
  });
});

describe('categoryIdProblem', () => {
  it.each([1, 42, CATEGORY_ID_MAX])('accepts %d', (value) => {
    expect(categoryIdProblem(value)).toBeUndefined();
  });

  it('requires a value', () => {
    expect(categoryIdProblem(undefined)).toBe('is required');
  });

  it.each([0, -1, CATEGORY_ID_MAX + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5', null, true, [1], 5n])('refuses %p', (value) => {
    expect(categoryIdProblem(value)).toBe('must be an integer from 1 to 9007199254740991');
  });
});

describe('PET_NAME_PATTERN (the schema of `name`)', () => {
  const pattern = new RegExp(PET_NAME_PATTERN, 'u');
  it.each(['Rex', ' Rex ', 'Ré x', '犬', 'a\u00a0b', '🐕'])('accepts %j, as the service does', (name) => {
    expect([pattern.test(name), petNameProblem(name)]).toEqual([true, undefined]);
  });
  it.each(['', '   ', '\u00a0', '\u3000', 'a\u0000', 'tab\there', 'del\u007f', '\n', '\u0085', ' \u0085 '])(
    'refuses %j, as the service does',
    (name) => {
      expect(pattern.test(name)).toBe(false);
      expect(petNameProblem(name)).toBeDefined();
    },
  );
});
