import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { gidOf, uidOf } from '../cluster/servers';
import { runLoad, sleep } from '../support/load';
import { freePort } from '../support/processes';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { AUTH } from '../support/test-key';

/** Debian's PostgreSQL server programs (initdb, pg_ctl), the newest installed; undefined without them. */
function serverPrograms(): string | undefined {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  return version && existsSync(join(root, version, 'bin', 'pg_ctl')) ? join(root, version, 'bin') : undefined;
}

const BIN = serverPrograms();
/** A server of the suite's own, crashed on purpose: on a machine with PostgreSQL's server programs, as `pnpm test` on the server runs. */
const withServer = process.env.DATABASE_URL && BIN ? it : it.skip;

describe('PostgreSQL crashes under create load (built service, a server of its own)', () => {
  let dir: string;
  let port: number;
  let service: ServiceProcess | undefined;

  /** A server program; as root, as the postgres user (PostgreSQL refuses root). */
  const postgres = (program: string, ...args: string[]) => {
    const asRoot = process.getuid?.() === 0;
    const [command, prefix] = asRoot
      ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', join(BIN!, program)]]
      : [join(BIN!, program), []];
    execFileSync(command, [...prefix, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const start = () =>
    postgres('pg_ctl', '-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start');

  afterAll(async () => {
    await service?.stop();
    if (dir && existsSync(join(dir, 'data', 'postmaster.pid'))) postgres('pg_ctl', '-D', join(dir, 'data'), '-m', 'immediate', 'stop');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  withServer(
    'loses no pet it answered 201 for: an immediate stop (no checkpoint, its WAL buffers gone), then a restart',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-crash-'));
      if (process.getuid?.() === 0) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
      port = await freePort();
      postgres('initdb', '-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres');
      start();
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      service = await startServiceProcess({ DATABASE_URL: url });
      let answered = 0;
      let crashed = () => undefined as void;
      const loaded = new Promise<void>((resolve) => (crashed = resolve));
      let recovered = () => undefined as void;
      const back = new Promise<void>((resolve) => (recovered = resolve));
      let restarted = false;
      const load = runLoad({
        baseUrl: service.baseUrl,
        headers: AUTH,
        concurrency: 16,
        until: back,
        next: (c, i) => ({ method: 'POST', path: '/v1/pets', body: { name: `crash ${c}-${i}`, categoryId: 1 } }),
        onOutcome: ({ status }) => {
          if (status === 201 && ++answered === 300) crashed();
          if (status === 201 && restarted) recovered();
        },
      });
      // Mid-load, once 300 creates are answered: events, not time.
      await loaded;
      postgres('pg_ctl', '-D', join(dir, 'data'), '-m', 'immediate', 'stop');
      await sleep(500); // some creates meet the stopped server
      start();
      restarted = true;
      const { outcomes } = await load;
      const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => (o.body as { id: number }).id);
      const client = new Client({ connectionString: url });
      await client.connect();
      const stored = new Set((await client.query<{ id: string }>('SELECT id FROM pets')).rows.map((row) => Number(row.id)));
      await client.end();
      console.log(`PostgreSQL crashed under create load: ${acknowledged.length} answered 201, ${stored.size} stored`);
      expect(outcomes.filter((o) => ![201, 503].includes(o.status))).toEqual([]);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    },
    120000,
  );
});
