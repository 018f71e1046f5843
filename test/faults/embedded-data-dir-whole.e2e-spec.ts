import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Started, expectOneLineRefusal, openToOthers, startEmbedded, stop } from '../support/embedded-data-dir';
import { startServiceProcess } from '../support/service-process';
import { AUTH } from '../support/test-key';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';

/**
 * A whole DATA_DIR, no longer served. Creating one costs seconds of CPU, so it is created once and each
 * test gets a copy of it. A new or foreign folder is embedded-data-dir.e2e-spec.ts.
 */
describe('the embedded database folder (DATA_DIR): a whole one', () => {
  let root: string;
  /** A whole data folder holding the table `kept` of 300 rows. */
  let template: string;
  const running: Started[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'petstore-datadir-'));
    template = join(root, 'template');
    const started = await startEmbedded(template);
    try {
      const client = new Client({ connectionString: started.url });
      await client.connect();
      await client.query('CREATE TABLE kept AS SELECT generate_series(1, 300) AS n');
      await client.end();
    } finally {
      await stop(started);
    }
  }, STARTUP_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stop));
  }, STARTUP_TIMEOUT_MS);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const copyOfTemplate = (name: string): string => {
    const dataDir = join(root, name);
    cpSync(template, dataDir, { recursive: true });
    return dataDir;
  };

  it('makes a data folder that is open to others owner-only at start, and says so', async () => {
    const dataDir = copyOfTemplate('opened');
    chmodSync(join(dataDir, 'postgresql.auto.conf'), 0o666);
    chmodSync(dataDir, 0o755);
    const started = await startEmbedded(dataDir);
    running.push(started);
    expect(started.url).toBeDefined();
    expect(started.stderr).toMatch(
      new RegExp(
        `DATA_DIR ${dataDir} was open to other users \\(folder 0755, \\d+ entries inside with group or other permissions\\): made owner-only`,
      ),
    );
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it(
    'refuses a folder missing only PG_VERSION, never creating a database over its data, and serves it again once restored',
    async () => {
      const dataDir = copyOfTemplate('partial');
      renameSync(join(dataDir, 'PG_VERSION'), join(root, 'PG_VERSION.aside'));
      const refused = await startEmbedded(dataDir);
      running.push(refused);
      expectOneLineRefusal(refused, dataDir, 'is not empty but is not a whole embedded PostgreSQL data folder (missing PG_VERSION)');
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);

      renameSync(join(root, 'PG_VERSION.aside'), join(dataDir, 'PG_VERSION'));
      const restored = await startEmbedded(dataDir);
      running.push(restored);
      const client = new Client({ connectionString: restored.url });
      await client.connect();
      expect((await client.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 300 }]);
      await client.end();
    },
    2 * STARTUP_TIMEOUT_MS,
  );

  it('refuses a second start beside a running one at once, naming the process that serves the folder', async () => {
    const dataDir = copyOfTemplate('served');
    const serving = await startEmbedded(dataDir);
    running.push(serving);
    const asked = performance.now();
    const refused = await startEmbedded(dataDir);
    running.push(refused);
    expectOneLineRefusal(refused, dataDir, `is in use: process ${serving.child.pid} already serves its embedded PostgreSQL`);
    // Not after retrying the lock until it could have gone stale (22 s), as it did.
    expect(performance.now() - asked).toBeLessThan(20_000);
  });

  it('stops the start of a damaged folder with one line naming it', async () => {
    const dataDir = copyOfTemplate('damaged');
    truncateSync(join(dataDir, 'global', 'pg_control'), 0);
    const refused = await startEmbedded(dataDir);
    running.push(refused);
    console.log(`damaged DATA_DIR: ${refused.stderr.trim()}`);
    expectOneLineRefusal(refused, dataDir, 'cannot be used by the embedded PostgreSQL');
  });

  it(
    'keeps every acknowledged write when its service is killed (SIGKILL), and starts again at once on the same folder',
    async () => {
      const dataDir = copyOfTemplate('killed');
      const first = await startServiceProcess({ DATA_DIR: dataDir });
      const ids: number[] = [];
      const create = (i: number) =>
        fetch(`${first.baseUrl}/v1/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Kept ${i}`, categoryId: 1 }),
        });
      for (let i = 0; i < 30; i++) {
        const answer = await create(i);
        expect(answer.status).toBe(201);
        ids.push(((await answer.json()) as { id: number }).id);
      }
      // A killed service leaves its socket's folder (named in the owner file) behind: removed here.
      const { url } = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8')) as { url: string };
      expect(await first.stop('SIGKILL')).toBeNull();
      rmSync(new URL(url).searchParams.get('host')!, { recursive: true, force: true });
      const restarted = performance.now();
      const second = await startServiceProcess({ DATA_DIR: dataDir });
      try {
        console.log(`restarted ${Math.round(performance.now() - restarted)} ms after SIGKILL`);
        // The killed process's lock goes stale 20 s after its last refresh: the start says why it waits.
        expect(second.stderr()).toContain(
          `DATA_DIR ${dataDir}: process ${first.child.pid}, which held it, is not running: waiting up to 20 s for its lock to go stale`,
        );
        const answer = await fetch(`${second.baseUrl}/v1/pets?limit=100`, { headers: AUTH });
        expect(((await answer.json()) as Array<{ id: number }>).map((pet) => pet.id)).toEqual(ids);
      } finally {
        await second.stop();
      }
    },
    2 * STARTUP_TIMEOUT_MS,
  );
});
