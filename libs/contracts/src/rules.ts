import { ValidationOptions, registerDecorator } from 'class-validator';
import { CATEGORY_ID_MAX, NAME_MAX_LENGTH, PET_ID_MAX } from './limits';
import { PET_STATUSES } from './pet-status';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;
// A lone UTF-16 surrogate is not a Unicode code point; PostgreSQL would refuse it as invalid UTF-8.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `name` in the OpenAPI schema: not blank and no control characters (U+0000-U+001F, U+007F), as
 * ECMA-262 regex. What it cannot say: lengths count code points here but UTF-16 units in some
 * validators, and a lone surrogate is refused by the service only.
 */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

/** Why a value is not a valid pet name, or undefined when it is one. */
export function petNameProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'string') return 'must be a string';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text';
  const length = [...value].length; // code points, not UTF-16 units
  if (length < 1 || length > NAME_MAX_LENGTH) return `must be 1 to ${NAME_MAX_LENGTH} characters long`;
  if (value.trim() === '') return 'must not be blank';
  if (CONTROL_CHARACTER.test(value)) return 'must not contain control characters (U+0000-U+001F, U+007F)';
  return undefined;
}

/** Why a value is not a valid category id, or undefined when it is one. */
export function categoryIdProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > CATEGORY_ID_MAX) {
    return `must be an integer from 1 to ${CATEGORY_ID_MAX}`;
  }
  return undefined;
}

const statusProblem = (value: unknown) =>
  (PET_STATUSES as readonly unknown[]).includes(value) ? undefined : `must be one of: ${PET_STATUSES.join(', ')}`;

/** The canonical decimal text of a positive int64 (no leading zeros: the transform drops them first). */
const petIdProblem = (value: unknown) =>
  typeof value === 'string' && /^[1-9][0-9]{0,18}$/.test(value) && BigInt(value) <= BigInt(PET_ID_MAX)
    ? undefined
    : `must be an integer from 1 to ${PET_ID_MAX}`;

/** A rule whose message is `<property> <problem>`; its name is what the OpenAPI schema converters key on (schemas.ts). */
function ruleDecorator(name: string, problem: (value: unknown) => string | undefined) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target, propertyName) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: propertyName as string,
        options,
        validator: {
          validate: (value: unknown) => problem(value) === undefined,
          defaultMessage: (args) => `${args?.property} ${problem(args?.value)}`,
        },
      });
}

/** 1-255 code points, not blank, no control characters. */
export const IsPetName = ruleDecorator('isPetName', petNameProblem);
/** A JSON integer from 1 to 2^53 - 1. */
export const IsCategoryId = ruleDecorator('isCategoryId', categoryIdProblem);
/** One of PET_STATUSES. */
export const IsPetStatus = ruleDecorator('isPetStatus', statusProblem);
/** A positive int64 as canonical decimal text. */
export const IsPetId = ruleDecorator('isPetId', petIdProblem);
