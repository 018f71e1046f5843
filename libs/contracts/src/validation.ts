import { ClassConstructor, ClassTransformOptions, classToPlain, plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';

/** Unknown properties handed on to validation, which names them: enough for an answer (it lists at most 20). */
const UNKNOWN_KEPT = 20;
const declared = new WeakMap<object, Set<string>>();

/** The properties a class declares rules for, read from its class-validator metadata. */
function declaredProperties(cls: ClassConstructor<unknown>): Set<string> {
  let properties = declared.get(cls);
  if (!properties) {
    properties = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(cls, '', false, false)
        .map((rule) => rule.propertyName),
    );
    declared.set(cls, properties);
  }
  return properties;
}

/**
 * class-transformer for the contract classes, safe on any JSON value (ValidationPipe's
 * `transformerPackage`, or a client's own validation). Every field of the contract is a string or a
 * number, so an object or array in a field is not walked (30,000 nested arrays overflowed the stack):
 * NaN stands in for it, which every rule refuses naming the field. Of the unknown properties only the
 * first 20 are kept: class-transformer took 200 ms for a 64 KiB body of 9,000 of them.
 */
export const contractTransformer = {
  plainToInstance<T>(cls: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T {
    if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return plainToInstance(cls, plain as object, options);
    const properties = declaredProperties(cls);
    const kept: Record<string, unknown> = {};
    let unknown = 0;
    for (const [key, value] of Object.entries(plain)) {
      if (!properties.has(key) && unknown++ >= UNKNOWN_KEPT) continue;
      kept[key] = typeof value === 'object' && value !== null ? NaN : value;
    }
    return plainToInstance(cls, kept, options);
  },
  classToPlain,
};

/**
 * What the service's validation finds wrong with `value` as a `cls`, checked in the client: no
 * problems, and the service accepts it (a body must also be a JSON object).
 */
export function contractProblems(cls: ClassConstructor<object>, value: unknown): ValidationError[] {
  return validateSync(contractTransformer.plainToInstance(cls, value), { whitelist: true, forbidNonWhitelisted: true });
}
