import { Client } from 'pg';
import { DATABASE_TIMEOUTS } from './database.options';

/** A database the service cannot use, said in one line that names the variable and the likely fix. */
export class DatabaseUnusableError extends Error {}

/** Refusals that a retry a second later may cure: the server starting, or its name not yet resolvable. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', '57P03']);
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 1000;

/** Opens and closes one connection to `url` before anything else: a refusal stops the start in seconds, in one line. */
export async function checkDatabase(variable: string, url: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let client: Client;
    try {
      client = new Client({ connectionString: url, connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs * 2 });
    } catch {
      // pg's parser refuses it (a port out of range, an unclosed [): said without echoing the URL, which may hold a password.
      throw new DatabaseUnusableError(`${variable} is not a URL PostgreSQL's client can read: check its host, port and escapes`);
    }
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      const code = (error as { code?: string }).code ?? '';
      if (attempt >= ATTEMPTS || !TRANSIENT.has(code)) throw new DatabaseUnusableError(explain(variable, url, code, error as Error));
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

/** The one line for a connection error; never the password. */
function explain(variable: string, url: string, code: string, error: Error): string {
  const { host, port, database, user } = parts(url);
  const server = `${host}:${port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot connect to PostgreSQL at ${server} (${variable}): connection refused. Is PostgreSQL running there, and are ${variable}'s host and port right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot connect to PostgreSQL (${variable}): the host name "${host}" does not resolve. Check ${variable}'s host`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `Cannot connect to PostgreSQL at ${server} (${variable}): no answer. Is PostgreSQL running there, and does a firewall let this host through?`;
    case '3D000':
      return `The database "${database}" does not exist on the PostgreSQL server at ${server} (${variable}): create it (createdb -h ${host} -p ${port} -U ${user} ${database}) or name an existing one in ${variable}`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${server} refused the user "${user}" of ${variable}: ${error.message}. Check the user and password in ${variable}`;
    case '57P03':
      return `PostgreSQL at ${server} (${variable}) is still starting up: start again in a moment`;
    default:
      if (/timeout/i.test(error.message))
        return `Cannot connect to PostgreSQL at ${server} (${variable}): no answer within ${(DATABASE_TIMEOUTS.connectMs * 2) / 1000} s. Is PostgreSQL running there?`;
      return `Cannot use the database in ${variable} (${server}/${database}): ${error.message.split('\n')[0]}`;
  }
}

function parts(url: string): { host: string; port: string; database: string; user: string } {
  if (!URL.canParse(url)) return { host: '?', port: '?', database: '?', user: '?' };
  const { hostname, port, pathname, username } = new URL(url);
  const user = decodeURIComponent(username) || 'postgres';
  return { host: decodeURIComponent(hostname) || 'localhost', port: port || '5432', database: decodeURIComponent(pathname.slice(1)) || user, user };
}
