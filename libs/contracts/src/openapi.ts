import { ERROR_CODES } from './api-error';
import { CATEGORY_ID_MAX, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN, NAME_MAX_LENGTH } from './limits';
import { DEFAULT_PET_STATUS, PET_STATUSES } from './pet-status';

/*
 * OpenAPI 3 schema components of the contract. They are plain data so that this package needs no
 * OpenAPI library at run time; they are built from the same constants as the validation rules.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Not blank and no control characters (U+0000-U+001F, U+007F), as ECMA-262 regex: at least one
 * character that is neither whitespace nor a control character. What it cannot say: lengths count code
 * points here but UTF-16 units in some validators, and a lone surrogate is refused by the service only.
 */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

const name = {
  type: 'string',
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: PET_NAME_PATTERN,
  description: `The animal's name: 1 to ${NAME_MAX_LENGTH} Unicode characters, not blank, no control characters. Not unique.`,
  example: 'Rex',
};
const categoryId = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: CATEGORY_ID_MAX,
  description: 'Identifier of the category the animal belongs to.',
  example: 3,
};

export const openApiSchemas = {
  PetStatus: {
    type: 'string',
    enum: [...PET_STATUSES],
    description: 'Availability of the animal.',
  },
  NewPet: {
    type: 'object',
    description: 'Request body for adding an animal. The service assigns `id`; unknown properties are rejected.',
    required: ['name', 'categoryId'],
    additionalProperties: false,
    properties: {
      name,
      categoryId,
      status: {
        allOf: [ref('PetStatus')],
        default: DEFAULT_PET_STATUS,
        description: `Availability; \`${DEFAULT_PET_STATUS}\` when omitted.`,
      },
    },
  },
  Pet: {
    type: 'object',
    description: 'An animal as returned by the service.',
    required: ['id', 'name', 'categoryId', 'status'],
    properties: {
      id: { type: 'integer', format: 'int64', minimum: 1, description: 'Assigned by the service on creation.', example: 1 },
      name,
      categoryId,
      status: { allOf: [ref('PetStatus')], description: 'Availability of the animal; always present.' },
    },
  },
  Pets: {
    type: 'array',
    description: 'A page of animals in ascending `id` order.',
    items: ref('Pet'),
  },
  Error: {
    type: 'object',
    description: 'The body of every error response.',
    required: ['code', 'message', 'status'],
    properties: {
      code: { type: 'string', enum: [...ERROR_CODES], description: 'Machine-readable error code.' },
      message: { type: 'string', description: 'Human-readable description naming the offending field or parameter.' },
      status: { type: 'integer', description: 'The HTTP status code.' },
      details: {
        type: 'array',
        description: 'For validation failures: one entry per offending field.',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  },
};

/** The `limit` query parameter of `GET /pets`, as an OpenAPI schema. */
export const listLimitSchema = {
  type: 'integer',
  minimum: LIST_LIMIT_MIN,
  maximum: LIST_LIMIT_MAX,
  default: LIST_LIMIT_DEFAULT,
};
