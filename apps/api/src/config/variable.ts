import { Expose, Transform } from 'class-transformer';

/** What the README's configuration table and `.env.example` say of one environment variable. */
export interface VariableDoc {
  name: string;
  /** The default as a person would write it in `.env`; undefined: unset means off or not used. */
  default?: string;
  /** Shown in the table when the default needs words (it depends on something, or is a built-in). */
  defaultNote?: string;
  description: string;
  /** `service`: the HTTP service; `tool`: the key tool (`pnpm keys`), which works on the same database. */
  usedBy: readonly ('service' | 'tool')[];
  /** A value the service cannot start without in production, and the command that makes one. */
  requiredInProduction?: string;
  /** A sample value for `.env.example` when there is no default. */
  example?: string;
  /** Read and checked by the OpenTelemetry SDK itself, not by this service's configuration. */
  readBySdk?: boolean;
}

export interface VariableOptions extends Omit<VariableDoc, 'usedBy' | 'default'> {
  /** Default: the service only. */
  usedBy?: VariableDoc['usedBy'];
  /** Default: the property's initial value, written as in `.env`. */
  default?: string;
  /** From the (non-empty) string of the environment to the property's value; a value it cannot convert is returned as is, for its rule to name. */
  parse?: (raw: string) => unknown;
}

export type ConfigGroup<T = object> = new () => T;

const declared = new Map<ConfigGroup, { property: string; options: VariableOptions }[]>();

/**
 * Declares the property as read from the environment variable `options.name`, documented by the rest of
 * `options`; its class-validator decorators are its rules, and its initial value is its default.
 */
export function Variable(options: VariableOptions): PropertyDecorator {
  return (target, property) => {
    Expose({ name: options.name })(target, property);
    const { parse } = options;
    if (parse) Transform(({ value }: { value: string }) => parse(value))(target, property);
    const group = target.constructor as ConfigGroup;
    declared.set(group, [...(declared.get(group) ?? []), { property: String(property), options }]);
  };
}

/** The group's variables in declaration order, with the defaults its properties start with. */
export function variablesOf(group: ConfigGroup): VariableDoc[] {
  const defaults = new group() as Record<string, unknown>;
  return (declared.get(group) ?? []).map(({ property, options: { parse: _parse, usedBy, ...doc } }) => {
    // A list's default is empty: its row says in words what unset means.
    const initial = defaults[property];
    const shown = typeof initial === 'string' || typeof initial === 'number' || typeof initial === 'boolean' ? String(initial) : undefined;
    return { ...doc, default: doc.default ?? shown, usedBy: usedBy ?? ['service'] };
  });
}

/** The environment variable behind one property of a group. */
export function variableNameOf(group: ConfigGroup, property: string): string {
  return declared.get(group)?.find((variable) => variable.property === property)?.options.name ?? property;
}

/** A comma-separated list: entries trimmed, empty ones dropped. */
export function parseList(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** A whole number written in digits; anything else is kept as written, for the rule to report. */
export function parseInteger(raw: string): number | string {
  return /^[0-9]+$/.test(raw) ? Number(raw) : raw;
}

export function parseBoolean(raw: string): boolean | string {
  return raw === 'true' ? true : raw === 'false' ? false : raw;
}
