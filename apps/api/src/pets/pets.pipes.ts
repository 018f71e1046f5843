import { Injectable, PipeTransform } from '@nestjs/common';
import { ListPetsQuery, LIST_PETS_QUERY_FIELDS, NEW_PET_FIELDS, NewPet, PET_ID_MAX, Validated, validateInput } from '@petstore/contracts';
import { ValidationFailedError } from '@petstore/http-errors';
import { RejectedBody } from '../http/json-body-values';

function unwrap<T>(result: Validated<T>): T {
  if (!result.ok) throw new ValidationFailedError(result.errors);
  return result.value;
}

/** The body of `createPet`: a JSON object holding exactly the NewPet properties. */
@Injectable()
export class NewPetBodyPipe implements PipeTransform<unknown, NewPet> {
  transform(body: unknown): NewPet {
    if (body instanceof RejectedBody) throw body.error;
    if (body === undefined) {
      throw new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]);
    }
    return unwrap(validateInput(NewPet, body, { fields: NEW_PET_FIELDS, unknown: 'reject', subject: 'body' }));
  }
}

/** The query of `listPets`. Unknown parameters are ignored, as `access_token` must be. */
@Injectable()
export class ListPetsQueryPipe implements PipeTransform<unknown, ListPetsQuery> {
  transform(query: unknown): ListPetsQuery {
    return unwrap(validateInput(ListPetsQuery, query ?? {}, { fields: LIST_PETS_QUERY_FIELDS, unknown: 'ignore', subject: 'query' }));
  }
}

/** A positive integer in the int64 range (leading zeros allowed), returned as its canonical decimal text. */
@Injectable()
export class PetIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value === 'string' && /^0*[1-9][0-9]{0,18}$/.test(value)) {
      const id = BigInt(value);
      if (id >= 1n && id <= BigInt(PET_ID_MAX)) return id.toString();
    }
    throw new ValidationFailedError([{ field: 'petId', message: `petId must be an integer from 1 to ${PET_ID_MAX}` }]);
  }
}
