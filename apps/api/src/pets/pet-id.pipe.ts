import { Injectable, PipeTransform } from '@nestjs/common';
import { canonicalPetId, petIdProblem } from '@petstore/contracts';
import { ValidationFailedError } from '@petstore/http-errors';

/**
 * `petId` by the contract's own rule, as Nest's docs check one path parameter (`@Param('id', ParseIntPipe)`): the global
 * ValidationPipe on the one-field PetIdParam cost 12-16 % of a get's CPU (docs/performance.md). PetIdParam still documents it.
 */
@Injectable()
export class ParsePetIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    const id = canonicalPetId(value);
    const problem = petIdProblem(id);
    if (problem) throw new ValidationFailedError([{ field: 'petId', message: `petId ${problem}` }]);
    return id as string;
  }
}
