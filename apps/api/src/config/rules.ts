import { ValidateBy, ValidationArguments } from 'class-validator';

/*
 * The rules of the configuration's variables, as class-validator decorators. Each message is the rule
 * in words, with the fix; the reader prefixes the variable's name. A list's rule may name several
 * entries, one a line: each line is one problem.
 */

/** The value as given, cut short, for the messages of rules whose values are not secret. */
export function got(value: unknown): string {
  return `(got "${String(value).slice(0, 100)}")`;
}

/** The value passes `test`, or the problem is `message` (a function of the value, or fixed words). */
export function Rule(test: (value: unknown) => boolean, message: string | ((value: unknown) => string)): PropertyDecorator {
  return ValidateBy({
    name: 'rule',
    validator: {
      validate: (value: unknown) => test(value),
      defaultMessage: (args?: ValidationArguments) => (typeof message === 'string' ? message : message(args?.value)),
    },
  });
}

/** `from` words the lower bound when it means something (`0 (off)`). */
export function IntegerIn(min: number, max: number, from = String(min)): PropertyDecorator {
  return Rule(
    (value) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
    (value) => `must be an integer from ${from} to ${max} ${got(value)}`,
  );
}

/** One of `values`; `words` says which, as a person would. */
export function OneOf(values: readonly unknown[], words: string, echo = true): PropertyDecorator {
  return Rule(
    (value) => values.includes(value),
    (value) => `must be ${words}${echo ? ` ${got(value)}` : ''}`,
  );
}

export function UrlOf(protocols: readonly string[], words: string): PropertyDecorator {
  return Rule((value) => hasProtocol(String(value), protocols), `must be ${words}`);
}

/** Each entry of a list: `problem` says what is wrong with one (or undefined). */
export function EachEntry(problem: (entry: string, index: number) => string | undefined): PropertyDecorator {
  const problems = (value: unknown) => (value as string[]).flatMap((entry, index) => problem(entry, index) ?? []);
  return Rule(
    (value) => problems(value).length === 0,
    (value) => problems(value).join('\n'),
  );
}

export function hasProtocol(raw: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

export const HTTP = ['http:', 'https:'];
export const POSTGRES = ['postgres:', 'postgresql:'];
