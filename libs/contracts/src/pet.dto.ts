import { Transform } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';
import { fieldsOf } from './fields';
import { CURSOR_MAX_LENGTH, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from './limits';
import { PET_STATUSES, PetStatus } from './pet-status';
import { IsCategoryId, IsPetName } from './rules';

/** Said of a `status` that is not a PetStatus (body or query). */
export const STATUS_MESSAGE = `status must be one of: ${PET_STATUSES.join(', ')}`;
/** Said of a `limit` that is not plain digits from LIST_LIMIT_MIN to LIST_LIMIT_MAX. */
export const LIMIT_MESSAGE = `limit must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`;
/** Said of any cursor the service did not issue for this listing: garbled, forged, or from another filter. */
export const CURSOR_MESSAGE = 'cursor is not valid for this listing: follow the rel="next" Link of a previous page, with the same status';

/** Request body for adding an animal. The client never sends `id`. */
export class NewPet {
  @IsPetName()
  name!: string;

  @IsCategoryId()
  categoryId!: number;

  // Not @IsOptional: that would let `null` through, and null is not a status.
  @ValidateIf((pet: NewPet) => pet.status !== undefined)
  @IsIn(PET_STATUSES, { message: STATUS_MESSAGE })
  status?: PetStatus;
}
export const NEW_PET_FIELDS = fieldsOf(NewPet);

/** An animal as the service returns it. */
export class Pet {
  @IsInt()
  @Min(1)
  id!: number;

  @IsPetName()
  name!: string;

  @IsCategoryId()
  categoryId!: number;

  @IsIn(PET_STATUSES, { message: STATUS_MESSAGE })
  status!: PetStatus;
}
export const PET_FIELDS = fieldsOf(Pet);

/** Query parameters of `GET /pets`. Values arrive as text and are converted only when they are plain digits. */
export class ListPetsQuery {
  // Leading zeros are allowed, as in petId: `limit=007` is 7.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^0*[0-9]{1,4}$/.test(value) ? Number(value) : value))
  @ValidateIf((query: ListPetsQuery) => query.limit !== undefined)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(LIST_LIMIT_MIN, { message: LIMIT_MESSAGE })
  @Max(LIST_LIMIT_MAX, { message: LIMIT_MESSAGE })
  limit?: number;

  @ValidateIf((query: ListPetsQuery) => query.status !== undefined)
  @IsIn(PET_STATUSES, { message: STATUS_MESSAGE })
  status?: PetStatus;

  /** Opaque: only its shape is checked here; the service checks that it issued it (signature, filter). */
  @ValidateIf((query: ListPetsQuery) => query.cursor !== undefined)
  @Matches(new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$`), { message: CURSOR_MESSAGE })
  cursor?: string;
}
export const LIST_PETS_QUERY_FIELDS = fieldsOf(ListPetsQuery);
