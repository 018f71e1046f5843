import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/config';
import { DatabaseUnusableError, checkDatabase } from '../database/database-check';
import { databaseTarget } from '../database/database.options';
import { migrate } from '../database/migrate';

const USAGE = `Usage: migrate
Applies the pending migrations to the PostgreSQL server of DATABASE_DIRECT_URL, else DATABASE_URL, and
exits: once per release, before the new instances start (deploy/kubernetes runs it as a Job). Safe
beside running instances and repeated: one transaction under an advisory lock, nothing pending twice.`;

async function main([argument]: string[]): Promise<void> {
  if (argument === '--help' || argument === '-h') return void process.stdout.write(`${USAGE}\n`);
  if (argument !== undefined) throw new ConfigError([`Unknown argument "${argument}" (see: migrate --help)`]);
  const config = loadConfig(process.env, process.cwd(), 'tool');
  if (!config.database.url) throw new ConfigError(['DATABASE_URL is required: the embedded PostgreSQL is migrated by the service itself']);
  if (config.database.directUrl) await checkDatabase('DATABASE_DIRECT_URL', config.database.directUrl);
  else await checkDatabase('DATABASE_URL', config.database.url);
  await migrate(databaseTarget(config));
  process.stderr.write('Migrations applied\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DatabaseUnusableError;
  process.stderr.write(`${known ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
