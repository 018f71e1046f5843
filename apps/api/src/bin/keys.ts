import { parseArgs } from 'node:util';
import { parseScopes } from '../auth/api-key';
import type { ApiKeyRecord } from '../auth/api-keys.repository';

const USAGE = `Usage:
  keys create --name <label> [--scopes a,b] [--expires <ISO date>]   prints the new key alone on stdout
  keys list [--json]
  keys revoke <id>
  keys rotate <id> [--grace <duration: 30s, 10m, 1h, 7d>] [--expires <ISO date>]
Database: DATABASE_URL, else the embedded PostgreSQL in DATA_DIR (default .data/).`;

class UsageError extends Error {}

/** What would let `ops` and a lookalike read the same in `keys list`: controls, format characters (U+202E, U+200B), spaces
 * but the plain one, separators, default-ignorables that show as nothing (U+034F, U+3164), a mark on no visible base. */
const INVISIBLE = /(?! )[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]|(?:^| )\p{M}/u;
const OPTIONS = {
  name: { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
  grace: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The key tool: the usage is checked before the database opens. Results (a key, the list) go to stdout; everything else to stderr. */
async function main(argv: string[]): Promise<void> {
  const { values, positionals, tokens } = usage(() => parseArgs({ args: argv, allowPositionals: true, options: OPTIONS, tokens: true }));
  // parseArgs keeps a repeated option's last value: `--scopes a --scopes b` would grant b alone, silently.
  const given = tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : []));
  const repeated = given.find((name, index) => given.indexOf(name) !== index);
  if (repeated) throw new UsageError(`Option '--${repeated}' may be given only once.`);
  const [command, ...operands] = positionals;
  if (values.help) throw new UsageError('');
  if (!command) throw new UsageError('A command is required: create, list, revoke or rotate');
  if (!['create', 'list', 'revoke', 'rotate'].includes(command)) throw new UsageError(`Unknown command "${command}"`);
  const takesId = command === 'revoke' || command === 'rotate';
  const [id, ...extra] = takesId ? operands : ['', ...operands];
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}"`);
  if (!id && takesId) throw new UsageError('The id of the key is required (see: keys list)');
  const expiresAt = values.expires === undefined ? undefined : await parseExpiry(values.expires);
  const graceMs = values.grace === undefined ? 0 : parseDuration(values.grace);
  const label = values.name?.trim();
  if (command === 'create' && (!label || label.length > 100)) throw new UsageError('--name <label> is required: 1 to 100 characters');
  const hidden = label && INVISIBLE.exec(label)?.[0].replace(/^ /, '').codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
  if (hidden) throw new UsageError(`--name may hold visible characters and plain spaces only (U+${hidden} is not one)`);
  const scopes = command === 'create' ? usage(() => parseScopes(values.scopes), '--scopes: ') : [];

  const { withRepository } = await import('./keys-database.js');
  await withRepository(async (repository) => {
    if (command === 'create') {
      const { key, record } = await repository.create({ label: label!, scopes, expiresAt });
      process.stderr.write(`Created API key ${record.id} "${record.label}" (${record.scopes.join(', ')}). It is shown only this once:\n`);
      process.stdout.write(`${key}\n`);
    } else if (command === 'list') {
      const keys = await repository.list();
      process.stdout.write(values.json ? `${JSON.stringify(keys, null, 2)}\n` : formatTable(keys));
    } else if (command === 'revoke') {
      const key = await repository.revoke(id);
      process.stderr.write(
        `API key ${key.id} "${key.label}" revoked at ${key.revokedAt!.toISOString()}; running services refuse it within 5 seconds\n`,
      );
    } else {
      const { old, successor } = await repository.rotate(id, graceMs, expiresAt);
      process.stderr.write(
        `API key ${old.id} rotated: successor ${successor.record.id}; the old key is refused from ${old.expiresAt!.toISOString()}. The new key is shown only this once:\n`,
      );
      process.stdout.write(`${successor.key}\n`);
    }
  });
}

/** Bad usage (node:util's own words, without its stack, or `prefix` and the error's) as a UsageError. */
function usage<T>(parse: () => T, prefix = ''): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${prefix}${(error as Error).message.split('\n')[0].replace(/\. .*$/, '.')}`);
  }
}

async function parseExpiry(raw: string): Promise<Date> {
  // Loaded here: class-validator is most of the load of a run that refuses its usage (0.3 s of CPU, 0.15 s without it).
  const { isISO8601 } = await import('class-validator');
  const date = new Date(raw);
  const got = `(got "${raw.slice(0, 40)}")`;
  if (!isISO8601(raw) || Number.isNaN(date.getTime())) throw new UsageError(`--expires must be an ISO 8601 date ${got}`);
  // Date rolls an impossible day over (2099-02-31 becomes 3 March): strict ISO 8601 refuses it.
  if (!isISO8601(raw, { strict: true })) throw new UsageError(`--expires names a day that does not exist ${got}`);
  // A time without a zone would be this machine's local time: another operator's machine reads it otherwise.
  if (/[T ]\d/i.test(raw) && !/(Z|[+-]\d\d(:?\d\d)?)$/i.test(raw)) throw new UsageError(`--expires with a time needs its zone, Z or ±hh:mm ${got}`);
  if (date.getTime() <= Date.now()) throw new UsageError(`--expires must be in the future (got "${raw}")`);
  return date;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `0`, or a whole number of seconds, minutes, hours or days, up to a year. */
function parseDuration(raw: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(raw);
  const ms = raw === '0' ? 0 : match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
  if (!(ms >= 0 && ms <= 366 * UNIT_MS.d))
    throw new UsageError(`--grace must be a duration such as 30s, 10m, 1h or 7d, at most a year (got "${raw}")`);
  return ms;
}

function formatTable(keys: ApiKeyRecord[]): string {
  const show = (value: string | Date | null) => (value instanceof Date ? value.toISOString().replace(/\.\d{3}Z$/, 'Z') : (value ?? '-'));
  const rows = [
    ['ID', 'LABEL', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED', 'REPLACED BY', 'LAST DEPRECATED CALL'],
    ...keys.map((k) =>
      [k.id, k.label, k.scopes.join(','), k.createdAt, k.lastUsedAt, k.expiresAt, k.revokedAt, k.replacedBy, k.lastDeprecatedCallAt].map(show),
    ),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  return rows.map((row) => `${line(row).trimEnd()}\n`).join('');
}

main(process.argv.slice(2)).catch(async (error: unknown) => {
  if (error instanceof UsageError) {
    // Asked for help: the usage. Bad usage: one line saying what is wrong, and exit 2.
    process.stderr.write(error.message ? `${error.message} (see: keys --help)\n` : `${USAGE}\n`);
    process.exit(error.message ? 2 : 0);
  }
  // Anything else comes from the database side, loaded by then.
  const { isWorded } = await import('./keys-database.js');
  process.stderr.write(`${isWorded(error) ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
