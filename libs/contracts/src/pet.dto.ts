import { Exclude, Expose, Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT, NAME_MAX_LENGTH, PET_ID_MAX, PET_STATUSES, PetStatus } from './limits';
import { GivenOnce, IsCategoryId, IsPetId, IsPetName, IsPetStatus, canonicalPetId } from './rules';

// The contract's shapes: their rules validate requests and, with the descriptions, give the OpenAPI schemas.
const LIST_LIMIT_MIN = 1;
const LIST_LIMIT_MAX = 100;
export const STATUS_MESSAGE = `status must be one of: ${PET_STATUSES.join(', ')}`;
export const LIMIT_MESSAGE = `limit must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`;
export const CURSOR_MESSAGE = 'cursor is not valid for this listing: follow the rel="next" Link of a previous page, with the same status';
const NAME = `The animal's name: 1 to ${NAME_MAX_LENGTH} Unicode characters, not blank, no control characters. Not unique.`;
const CATEGORY = 'Identifier of the category the animal belongs to.';
/** Present only when the value is (a condition, not @IsOptional, which would let `null` through). */
const unlessAbsent = (property: string) => ValidateIf((object: Record<string, unknown>) => object[property] !== undefined);

@JSONSchema({
  description: 'Request body for adding an animal. The service assigns `id`; unknown properties are rejected.',
  additionalProperties: false,
})
export class NewPet {
  @JSONSchema({ description: NAME, example: 'Rex' })
  @IsPetName()
  name!: string;

  @JSONSchema({ description: CATEGORY, example: 3 })
  @IsCategoryId()
  categoryId!: number;

  @JSONSchema({ default: DEFAULT_PET_STATUS, description: `Availability; \`${DEFAULT_PET_STATUS}\` when omitted.` })
  @unlessAbsent('status')
  @IsPetStatus()
  status?: PetStatus;
}

@JSONSchema({ description: 'An animal as returned by the service.' })
export class Pet {
  @JSONSchema({ format: 'int64', description: 'Assigned by the service on creation.', example: 1 })
  @IsInt()
  @Min(1)
  id!: number;

  @JSONSchema({ description: NAME, example: 'Rex' })
  @IsPetName()
  name!: string;

  @JSONSchema({ description: CATEGORY, example: 3 })
  @IsCategoryId()
  categoryId!: number;

  @JSONSchema({ description: 'Availability of the animal; always present.' })
  @IsPetStatus()
  status!: PetStatus;
}

/** Query of `GET /pets`: other parameters are dropped, not refused (@Exclude), so `access_token` is ignored. */
@Exclude()
export class ListPetsQuery {
  @JSONSchema({
    default: LIST_LIMIT_DEFAULT,
    example: LIST_LIMIT_DEFAULT,
    description: 'Maximum number of animals returned: decimal digits only (leading zeros allowed); `+5`, ` 5` and `1e1` are a 400.',
  })
  @Expose()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^0*[0-9]{1,4}$/.test(value) ? Number(value) : value))
  @unlessAbsent('limit')
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(LIST_LIMIT_MIN, { message: LIMIT_MESSAGE })
  @Max(LIST_LIMIT_MAX, { message: LIMIT_MESSAGE })
  @GivenOnce()
  limit?: number;

  @JSONSchema({ description: 'Keep only animals with this status.' })
  @Expose()
  @unlessAbsent('status')
  @IsPetStatus()
  @GivenOnce()
  status?: PetStatus;

  @JSONSchema({
    description:
      'Opaque position in the listing, taken from the `rel="next"` Link of the previous page; used with the same `status` ' +
      'as that page. Any other value is a 400 `validation_failed` naming `cursor`.',
  })
  @Expose()
  @unlessAbsent('cursor')
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: CURSOR_MESSAGE })
  @GivenOnce()
  cursor?: string;
}

export class PetIdParam {
  @JSONSchema({
    format: 'int64',
    example: 1,
    description: `Identifier of the animal: a positive int64 (up to ${PET_ID_MAX}), in decimal digits only (leading zeros allowed); \`1e3\` or \`+1\` is a 400.`,
  })
  @Transform(({ value }: { value: unknown }) => canonicalPetId(value))
  @IsPetId()
  petId!: string;
}
