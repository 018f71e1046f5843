import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { Client } from 'pg';
import { STARTUP_TIMEOUT_MS, TestDatabase, startEmbeddedServer } from '../support/test-database';

/** PGlite has no passwords: it is served where only this user can reach it. */
describe('embedded PostgreSQL access', () => {
  let embedded: TestDatabase;
  beforeAll(async () => {
    embedded = await startEmbeddedServer();
  }, STARTUP_TIMEOUT_MS);
  afterAll(() => embedded?.drop(), STARTUP_TIMEOUT_MS);

  const socketDir = () => new URL(embedded.url).searchParams.get('host')!;

  it('listens on a Unix socket in a directory only its owner may enter, not on a TCP port', async () => {
    expect(socketDir()).toMatch(/^\//);
    const dir = statSync(socketDir());
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(process.getuid!());
    const client = new Client({ connectionString: embedded.url });
    await client.connect();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  // Root enters any directory, so "another user" is played by `nobody` (possible when the tests run as root).
  (process.getuid?.() === 0 ? it : it.skip)('refuses another local user', () => {
    const nobody = execFileSync('id', ['-u', 'nobody']).toString().trim();
    const attempt = spawnSync(
      'setpriv',
      [
        '--reuid',
        nobody,
        '--regid',
        nobody,
        '--clear-groups',
        process.execPath,
        '-e',
        `require('net').connect(process.argv[1]).on('connect', () => process.exit(0)).on('error', (e) => { console.log(e.code); process.exit(3); })`,
        `${socketDir()}/.s.PGSQL.5432`,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    expect({ status: attempt.status, out: attempt.stdout.trim() }).toEqual({ status: 3, out: 'EACCES' });
  });
});
