import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getDefaultParser } from '@nestjs/config';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Environment } from './environment';

export type Variables = Record<string, string | undefined>;

/** The Environment of `env` (an empty variable is unset: its default then) and every problem, one a line, each naming its variable. */
export function readEnvironment(env: Variables): { environment: Environment; problems: string[] } {
  const given = Object.fromEntries(Object.keys(new Environment()).flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const environment = plainToInstance(Environment, given, { exposeDefaultValues: true });
  const errors = validateSync(environment, { skipUndefinedProperties: true });
  return { environment, problems: errors.flatMap((error) => Object.values(error.constraints ?? {}).flatMap((message) => message.split('\n'))) };
}

/**
 * `.env` of the working directory into process.env, under the real environment (which wins), parsed by
 * @nestjs/config's parser (dotenv). Both the traces' setup, which runs first, and loadConfig ask for it: once per process.
 */
let envFileRead = false;
export function readEnvFile(cwd = process.cwd()): void {
  const path = resolve(cwd, '.env');
  if (envFileRead || !existsSync(path)) return;
  envFileRead = true;
  for (const [name, value] of Object.entries(getDefaultParser()(readFileSync(path)))) process.env[name] ??= String(value);
}
