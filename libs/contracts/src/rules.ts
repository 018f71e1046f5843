import { ValidateBy, ValidationOptions } from 'class-validator';
import { CATEGORY_ID_MAX, NAME_MAX_LENGTH, PET_ID_MAX, PET_STATUSES } from './limits';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;
// A lone UTF-16 surrogate is not a Unicode code point; PostgreSQL would refuse it as invalid UTF-8.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Unicode's White_Space: JavaScript's \s (and trim) lack U+0085 (NEXT LINE) alone.
const BLANK = /^[\s\u0085]*$/;

/** `name` in the OpenAPI schema; a lone surrogate is refused by the service only. */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0085\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

export function petNameProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'string') return 'must be a string';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text';
  const length = [...value].length; // code points, not UTF-16 units
  if (length < 1 || length > NAME_MAX_LENGTH) return `must be 1 to ${NAME_MAX_LENGTH} characters long`;
  if (BLANK.test(value)) return 'must not be blank';
  if (CONTROL_CHARACTER.test(value)) return 'must not contain control characters (U+0000-U+001F, U+007F)';
  return undefined;
}

export function categoryIdProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > CATEGORY_ID_MAX) {
    return `must be an integer from 1 to ${CATEGORY_ID_MAX}`;
  }
  return undefined;
}

const statusProblem = (value: unknown) =>
  (PET_STATUSES as readonly unknown[]).includes(value) ? undefined : `must be one of: ${PET_STATUSES.join(', ')}`;

/** A path id in decimal digits (leading zeros allowed) as canonical text; any other value as given, for petIdProblem to name. */
export const canonicalPetId = (value: unknown): unknown =>
  typeof value === 'string' && /^0*[1-9][0-9]{0,18}$/.test(value) ? BigInt(value).toString() : value;

/** Of a canonical id (canonicalPetId): a positive int64. */
export const petIdProblem = (value: unknown) =>
  typeof value === 'string' && /^[1-9][0-9]{0,18}$/.test(value) && BigInt(value) <= BigInt(PET_ID_MAX)
    ? undefined
    : `must be an integer from 1 to ${PET_ID_MAX}`;

/** A rule whose message is `<property> <problem>`; schemas.ts converts it to JSON Schema by its name. */
const ruleDecorator = (name: string, problem: (value: unknown) => string | undefined) => (options?: ValidationOptions) =>
  ValidateBy(
    { name, validator: { validate: (value) => !problem(value), defaultMessage: (args) => `${args?.property} ${problem(args?.value)}` } },
    options,
  );

export const IsPetName = ruleDecorator('isPetName', petNameProblem);
export const IsCategoryId = ruleDecorator('isCategoryId', categoryIdProblem);
export const IsPetStatus = ruleDecorator('isPetStatus', statusProblem);
export const IsPetId = ruleDecorator('isPetId', petIdProblem);
/** A query parameter sent twice arrives as an array: said so, where every other rule would blame the value. Written last (applied first): its message is the one the answer gives. */
export const GivenOnce = ruleDecorator('givenOnce', (value) => (Array.isArray(value) ? 'must be given once' : undefined));
