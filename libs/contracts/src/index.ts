export { ApiError, ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS, ErrorCode, apiError } from './api-error';
export type { ErrorDescription, FieldError } from './api-error';
export { CATEGORY_ID_MAX, CURSOR_MAX_LENGTH, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN, NAME_MAX_LENGTH, PET_ID_MAX } from './limits';
export { PET_NAME_PATTERN, listLimitSchema, openApiSchemas } from './openapi';
export { fieldsOf, requiredFieldsOf } from './fields';
export {
  CURSOR_MESSAGE,
  LIMIT_MESSAGE,
  LIST_PETS_QUERY_FIELDS,
  ListPetsQuery,
  NEW_PET_FIELDS,
  NewPet,
  PET_FIELDS,
  Pet,
  STATUS_MESSAGE,
} from './pet.dto';
export { DEFAULT_PET_STATUS, PET_STATUSES, PetStatus, isPetStatus } from './pet-status';
export { IsCategoryId, IsPetName, categoryIdProblem, petNameProblem } from './rules';
export { validateInput } from './validate';
export type { ValidateOptions, Validated } from './validate';
export { API_VERSION, CONTRACTS_VERSION } from './version';
