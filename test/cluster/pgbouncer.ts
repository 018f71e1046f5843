import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBinary, gidOf, uidOf } from './servers';

/** deploy/pgbouncer/pgbouncer.ini, or PETSTORE_PGBOUNCER_INI (e.g. an older one, to see a test fail against it). */
const PGBOUNCER_INI = process.env.PETSTORE_PGBOUNCER_INI ?? join(__dirname, '..', '..', 'deploy', 'pgbouncer', 'pgbouncer.ini');

/**
 * Writes `dir`/pgbouncer.ini: deploy's, listening on 127.0.0.1:`listenPort`, every database at 127.0.0.1:`relayPort`,
 * with trust for `direct`'s user (userlist.txt) and its log in `dir`.
 */
export function writePgBouncerConfig(dir: string, listenPort: number, relayPort: number, direct: URL): void {
  const site: Record<string, string> = {
    '*': `host=127.0.0.1 port=${relayPort}`,
    listen_addr: '127.0.0.1',
    listen_port: String(listenPort),
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: join(dir, 'userlist.txt'),
    logfile: join(dir, 'pgbouncer.log'),
  };
  const ini = readFileSync(PGBOUNCER_INI, 'utf8').replace(/^([*\w]+) = .*$/gm, (line, key: string) => (key in site ? `${key} = ${site[key]}` : line));
  writeFileSync(join(dir, 'pgbouncer.ini'), ini);
  writeFileSync(join(dir, 'userlist.txt'), `"${decodeURIComponent(direct.username) || 'postgres'}" ""\n`);
  // PgBouncer refuses to run as root: as root, it runs as the postgres user (pgBouncerCommand), who must read these.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const file of ['', 'pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, file), uidOf('postgres'), gidOf('postgres'));
}

/** The command that runs PgBouncer on `dir`/pgbouncer.ini: as root, as the postgres user (setpriv execs, so the pid is PgBouncer's). */
export function pgBouncerCommand(dir: string): [string, string[]] {
  const asRoot = process.getuid?.() === 0;
  const binary = findBinary('pgbouncer');
  return asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', binary, join(dir, 'pgbouncer.ini')]]
    : [binary, [join(dir, 'pgbouncer.ini')]];
}
