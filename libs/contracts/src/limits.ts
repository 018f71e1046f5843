/** The contract's limits and enums, shared by the validation rules and the OpenAPI schemas so the two cannot drift. */
export const NAME_MAX_LENGTH = 255;
/** The largest integer a JSON client can carry without loss (2^53 - 1). */
export const CATEGORY_ID_MAX = Number.MAX_SAFE_INTEGER;
export const LIST_LIMIT_DEFAULT = 20;
/** Largest PostgreSQL bigint, as text: ids beyond 2^53 cannot be held in a JS number. */
export const PET_ID_MAX = '9223372036854775807';

/** A const object rather than a TS enum, so plain JS consumers get real values. */
export const PetStatus = { Available: 'available', Pending: 'pending', Sold: 'sold' } as const;
export type PetStatus = (typeof PetStatus)[keyof typeof PetStatus];
export const PET_STATUSES: readonly PetStatus[] = Object.values(PetStatus);
export const DEFAULT_PET_STATUS: PetStatus = PetStatus.Available;
