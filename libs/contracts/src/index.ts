export { ApiError, ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS, ErrorCode, apiError } from './api-error';
export type { ErrorDescription, FieldError } from './api-error';
export { CATEGORY_ID_MAX, DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, NAME_MAX_LENGTH, PET_ID_MAX, PET_STATUSES, PetStatus } from './limits';
export { CURSOR_MESSAGE, LIMIT_MESSAGE, ListPetsQuery, NewPet, Pet, PetIdParam, STATUS_MESSAGE } from './pet.dto';
export { canonicalPetId, categoryIdProblem, petIdProblem, petNameProblem } from './rules';
export { contractProblems, contractTransformer, inheritedNames, validateContract } from './validation';
export { contractSchemas, parametersOf, schemaOf } from './schemas';
export { API_VERSION, CONTRACTS_VERSION } from './version';
