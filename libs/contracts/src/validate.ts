import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { FieldError } from './api-error';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface ValidateOptions {
  /** The properties the class declares, in the order errors are reported. */
  fields: readonly string[];
  /** `reject` (request bodies) names every other property as an error; `ignore` (query strings) drops them. */
  unknown: 'reject' | 'ignore';
  /** What the input is called in messages, e.g. "request body". */
  subject: string;
}

/**
 * Strict validation without implicit type coercion: the input must be a plain object, unknown
 * properties are handled before class-transformer sees them (so `__proto__` can never reach it),
 * and each failing field is reported once with a message that names it.
 *
 * Every field of the API is a string or a number, so an object or an array in a field never reaches
 * class-transformer either: it would walk into it (a `constructor` key crashed it, 30,000 nested
 * arrays overflowed the stack). NaN stands in for it: no rule accepts NaN, and each names its field.
 */
export function validateInput<T extends object>(cls: new () => T, input: unknown, options: ValidateOptions): Validated<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ field: options.subject, message: `${options.subject} must be a JSON object` }] };
  }
  const source = input as Record<string, unknown>;
  const known: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(source)) {
    if (options.fields.includes(key)) known[key] = typeof source[key] === 'object' && source[key] !== null ? NaN : source[key];
    else if (options.unknown === 'reject') errors.push({ field: key, message: `property ${key} is not allowed` });
  }
  const value = plainToInstance(cls, known);
  const failures = validateSync(value, { forbidUnknownValues: true });
  errors.push(...failures.map(toFieldError));
  if (errors.length > 0) {
    const order = (field: string) => {
      const index = options.fields.indexOf(field);
      return index < 0 ? options.fields.length : index;
    };
    errors.sort((a, b) => order(a.field) - order(b.field));
    return { ok: false, errors };
  }
  return { ok: true, value };
}

function toFieldError(error: ValidationError): FieldError {
  const messages = Object.values(error.constraints ?? {});
  return { field: error.property, message: messages[0] ?? `${error.property} is invalid` };
}
