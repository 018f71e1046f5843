import { ClassConstructor, ClassTransformOptions, classToPlain, plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';

/** Unknown properties kept for validation to name: an answer lists at most 20. */
const UNKNOWN_KEPT = 20;

/** Safe on any JSON value: nested values become NaN (30,000 nested arrays overflowed the stack); 20 unknown properties kept (9,000 took 200 ms). */
export const contractTransformer = {
  plainToInstance<T>(cls: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T {
    if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return plainToInstance(cls, plain as object, options);
    const declared = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(cls, '', false, false)
        .map((rule) => rule.propertyName),
    );
    let unknown = 0;
    const kept = Object.entries(plain).filter(([key]) => key !== '__proto__' && (declared.has(key) || unknown++ < UNKNOWN_KEPT));
    return plainToInstance(
      cls,
      Object.fromEntries(kept.map(([key, value]) => [key, typeof value === 'object' && value !== null ? NaN : value])),
      options,
    );
  },
  classToPlain,
};

/** What the service's validation finds wrong with `value` as a `cls`, checked in the client. */
export function contractProblems(cls: ClassConstructor<object>, value: unknown): ValidationError[] {
  return validateSync(contractTransformer.plainToInstance(cls, value), { whitelist: true, forbidNonWhitelisted: true });
}
