import { ClassConstructor, ClassTransformOptions, classToPlain, plainToInstance } from 'class-transformer';
import { ValidationError, ValidatorOptions, getMetadataStorage, validateSync } from 'class-validator';

/** Unknown properties kept for validation to name: an answer lists at most 20. */
const UNKNOWN_KEPT = 20;
/** The declared properties of each contract class, read once. */
const declaredOf = new WeakMap<ClassConstructor<unknown>, Set<string>>();
function declared(cls: ClassConstructor<unknown>): Set<string> {
  if (!declaredOf.has(cls)) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
    declaredOf.set(cls, new Set(rules.map((rule) => rule.propertyName)));
  }
  return declaredOf.get(cls)!;
}

/** An object, or an array holding one: a repeated query parameter (an array of strings) stays, for its rule to name. */
const nested = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !(Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null));

/** Safe on any JSON value: nested values become NaN (deep nesting overflowed the stack); at most 20 unknown properties kept. */
export const contractTransformer = {
  plainToInstance<T>(cls: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T {
    if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return plainToInstance(cls, plain as object, options);
    const names = declared(cls);
    let unknown = 0;
    const kept = Object.entries(plain)
      .filter(([key]) => key !== '__proto__' && (names.has(key) || unknown++ < UNKNOWN_KEPT))
      .map(([key, value]): [string, unknown] => [key, nested(value) ? NaN : value]);
    return plainToInstance(cls, Object.fromEntries(kept), options);
  },
  classToPlain,
};

/** The service's validation: every contract rule is synchronous. */
export const validateContract = (object: object, options?: ValidatorOptions): ValidationError[] => validateSync(object, options);

/** Keys NestJS deletes before validating (prototype pollution) or class-transformer skips (valueOf, toString: functions on
 * every object): the service names them as it names any unknown property. */
export const inheritedNames = (value: object): string[] => Object.keys(value).filter((key) => key === 'prototype' || key in Object.prototype);

const problem = (property: string, value: unknown, constraints: Record<string, string>) =>
  Object.assign(new ValidationError(), { property, value, constraints });

/** A class marked @Exclude() (the list query) drops what it does not declare, as the service does: nothing unknown to name. */
const dropsUnknown = (cls: ClassConstructor<object>) => !Object.hasOwn(plainToInstance(cls, { undeclared: 1 }), 'undeclared');

/** What the service's validation finds wrong with `value` as a `cls`, checked in the client, in the service's words. */
export function contractProblems(cls: ClassConstructor<object>, value: unknown): ValidationError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [problem('', value, { isObject: 'body must be a JSON object' })];
  const inherited = dropsUnknown(cls) ? [] : inheritedNames(value);
  const found = validateContract(contractTransformer.plainToInstance(cls, value), { whitelist: true, forbidNonWhitelisted: true });
  const notAllowed = (key: string) =>
    problem(key, (value as Record<string, unknown>)[key], { whitelistValidation: `property ${key} is not allowed` });
  return [
    ...found
      .filter((error) => !inherited.includes(error.property))
      .map((error) => (error.constraints?.whitelistValidation ? notAllowed(error.property) : error)),
    ...inherited.map(notAllowed),
  ];
}
