import { ValidationTypes, getMetadataStorage } from 'class-validator';

/**
 * The properties a contract class declares rules for, in declaration order, read from its
 * class-validator metadata: the class is the one list of its fields, so no list is kept beside it.
 */
export function fieldsOf<T extends object>(cls: new () => T): ReadonlyArray<keyof T & string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  return [...new Set(metadata.map((rule) => rule.propertyName))] as Array<keyof T & string>;
}

/** The fields that must be present: every field whose rules are not conditional (`@ValidateIf`). */
export function requiredFieldsOf<T extends object>(cls: new () => T): ReadonlyArray<keyof T & string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  const conditional = new Set(metadata.filter((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION).map((rule) => rule.propertyName));
  return fieldsOf(cls).filter((field) => !conditional.has(field));
}
