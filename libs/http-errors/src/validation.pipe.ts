import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { FieldError, contractTransformer, inheritedNames, validateContract } from '@petstore/contracts';
import { ValidationFailedError } from './domain-error';
import { redactKeys } from './redact-keys';

type ValidationProblem = { property: string; constraints?: Record<string, string> };
/** A client's property name echoed back, at most 64 code points, a key-shaped one redacted. */
const echoed = (name: string) => {
  const points = [...redactKeys(name)];
  return points.length > 64 ? `${points.slice(0, 64).join('')}…` : points.join('');
};
const notAllowed = (name: string): FieldError => ({ field: echoed(name), message: `property ${echoed(name)} is not allowed` });

/** The `exceptionFactory`: one detail per field, the declared fields first, then the unknown properties. */
function validationFailed(problems: ValidationProblem[]): ValidationFailedError {
  const unknown = (problem: ValidationProblem) => problem.constraints?.whitelistValidation !== undefined;
  const detail = (p: ValidationProblem) => ({ field: p.property, message: Object.values(p.constraints ?? {})[0] ?? `${p.property} is invalid` });
  return new ValidationFailedError([
    ...problems.filter((p) => !unknown(p)).map(detail),
    ...problems.filter(unknown).map((p) => notAllowed(p.property)),
  ]);
}

/** The global pipe: strict ValidationPipe over the contract classes; a body (or custom body decorator) must be a JSON object. */
@Injectable()
export class ContractValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validateCustomDecorators: true,
      transformerPackage: contractTransformer,
      exceptionFactory: validationFailed,
    });
  }

  /** Every contract rule is synchronous: validateSync spares a promise per rule (the pipe's documented override point). */
  protected override validate(...args: Parameters<typeof validateContract>): ReturnType<typeof validateContract> {
    return validateContract(...args);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if ((metadata.type !== 'body' && metadata.type !== 'custom') || !this.toValidate(metadata)) return super.transform(value, metadata);
    if (value === undefined) throw new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationFailedError([{ field: 'body', message: 'body must be a JSON object' }]);
    }
    const poisoned = inheritedNames(value).map(notAllowed);
    if (poisoned.length === 0) return super.transform(value, metadata);
    const others = await super.transform(value, metadata).then(
      () => [],
      (error: unknown) => {
        if (error instanceof ValidationFailedError) return error.details ?? [];
        throw error;
      },
    );
    throw new ValidationFailedError([...others, ...poisoned]);
  }
}
