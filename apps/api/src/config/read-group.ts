import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ConfigGroup, variableNameOf, variablesOf } from './variable';

export type Environment = Record<string, string | undefined>;

/**
 * One group of the configuration from the environment: its declared variables only, an empty one as
 * unset (its default then), each checked by its rules. Every problem is added to `problems`, named after
 * its variable, so that the caller reports them all at once.
 */
export function readGroup<T extends object>(group: ConfigGroup<T>, env: Environment, problems: string[]): T {
  const given = Object.fromEntries(variablesOf(group).flatMap(({ name }) => (env[name] ? [[name, env[name]]] : [])));
  const values = plainToInstance(group, given, { excludeExtraneousValues: true, exposeDefaultValues: true });
  for (const error of validateSync(values, { skipUndefinedProperties: true })) {
    const name = variableNameOf(group, error.property);
    for (const message of Object.values(error.constraints ?? {})) problems.push(...message.split('\n').map((line) => `${name} ${line}`));
  }
  return values;
}
