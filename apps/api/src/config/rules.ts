import { Transform } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min, ValidateBy } from 'class-validator';

/*
 * The rules of the environment's variables, as class-validator decorators and class-transformer
 * conversions. `$property` is the variable's name: each message names it, with the fix.
 */

/** One variable in the README's table and `.env.example` (`pnpm config:docs`), in declaration order. */
export interface VariableDoc {
  name: string;
  description: string;
  /** The value `.env.example` shows when the variable has no default. */
  example?: string;
}
export const VARIABLES: VariableDoc[] = [];
export const Doc =
  (description: string, example?: string): PropertyDecorator =>
  (_target, name) =>
    void VARIABLES.push({ name: String(name), description, example });

// From the environment's text to the property's type; a value that does not convert stays as written, for its rule to name.
export const integer = Transform(({ value }: { value: string }) => (/^[0-9]+$/.test(value) ? Number(value) : value));
export const boolean = Transform(({ value }: { value: string }) => ({ true: true, false: false })[value] ?? value);
export const list = Transform(({ value }: { value: string }) => value.split(',').flatMap((entry) => entry.trim() || []));
export const withoutTrailingSlash = Transform(({ value }: { value: string }) => value.replace(/\/+$/, ''));

/** An integer from `min` to `max`, as one problem whatever is wrong. */
export function IntegerIn(min: number, max: number, from = String(min)): PropertyDecorator {
  const message = { message: `$property must be an integer from ${from} to ${max} (got "$value")` };
  return (target, name) => [integer, IsInt(message), Min(min, message), Max(max, message)].forEach((rule) => rule(target, name));
}
export const oneOf = (words: string, echo = true) => ({ message: `$property must be ${words}${echo ? ' (got "$value")' : ''}` });
export const url = (scheme: RegExp, words: string) => Matches(new RegExp(`^${scheme.source}://[^\\s]+$`), { message: `$property must be ${words}` });
export const VERSIONED_URL = Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?\/v1$/, { message: '$property must be an http(s) URL ending in /v1' });
export const POSTGRES_URL = url(/postgres(ql)?/, 'a postgres:// or postgresql:// URL');
export const NEEDS_DATABASE_URL = ValidateBy({
  name: 'needsDatabaseUrl',
  validator: {
    validate: (value, args) => value === 'session' || (args!.object as { DATABASE_URL?: string }).DATABASE_URL !== undefined,
    defaultMessage: () => '$property describes a PostgreSQL server: it needs DATABASE_URL',
  },
});
export const OTLP_URL = url(/https?/, 'an http(s) URL, such as http://otel-collector:4318');
export const OTLP_PROTOCOL = IsIn(['http/json'], oneOf('http/json (the only OTLP protocol this service sends)', false));
