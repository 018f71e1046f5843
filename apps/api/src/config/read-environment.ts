import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getDefaultParser } from '@nestjs/config';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Environment, VARIABLES } from './environment';

export type Variables = Record<string, string | undefined>;
interface Reading {
  environment: Environment;
  problems: string[];
}
let last: { key: string; reading: Reading } | undefined;

/**
 * The Environment class from `env`: its variables only, an empty one as unset (its default then), each
 * checked by its rules. Every problem is returned, one a line, each naming its variable.
 */
export function readEnvironment(env: Variables): Reading {
  const given = Object.fromEntries(VARIABLES.flatMap(({ name }) => (env[name] ? [[name, env[name]]] : [])));
  // The traces' setup reads the process's environment first; loadConfig then finds it read (the result is never changed).
  const key = JSON.stringify(given);
  if (last?.key === key) return last.reading;
  const environment = plainToInstance(Environment, given, { exposeDefaultValues: true });
  const errors = validateSync(environment, { skipUndefinedProperties: true });
  // A rule may word several problems, one a line; rules that share their words (IntegerIn's) are said once.
  const problems = errors.flatMap((error) => [...new Set(Object.values(error.constraints ?? {}).flatMap((message) => message.split('\n')))]);
  last = { key, reading: { environment, problems } };
  return last.reading;
}

let envFileRead = false;

/**
 * `.env` of the working directory into process.env, under the real environment (which wins), parsed by
 * @nestjs/config's parser (dotenv). Once per process: the traces' setup, which runs first, and loadConfig
 * both ask for it.
 */
export function readEnvFile(cwd = process.cwd()): void {
  const path = resolve(cwd, '.env');
  if (envFileRead || !existsSync(path)) return;
  envFileRead = true;
  for (const [name, value] of Object.entries(getDefaultParser()(readFileSync(path)))) process.env[name] ??= String(value);
}
