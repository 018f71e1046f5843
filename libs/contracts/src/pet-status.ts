/** Availability of an animal. A const object rather than a TS enum, so plain JS consumers get real values. */
export const PetStatus = {
  Available: 'available',
  Pending: 'pending',
  Sold: 'sold',
} as const;
export type PetStatus = (typeof PetStatus)[keyof typeof PetStatus];

export const PET_STATUSES: readonly PetStatus[] = Object.values(PetStatus);
/** Status given to an animal added without one. */
export const DEFAULT_PET_STATUS: PetStatus = PetStatus.Available;

export function isPetStatus(value: unknown): value is PetStatus {
  return typeof value === 'string' && (PET_STATUSES as readonly string[]).includes(value);
}
