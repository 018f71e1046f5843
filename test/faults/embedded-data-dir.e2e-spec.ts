import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { EMBEDDED_SERVER } from '../support/processes';
import { startServiceProcess } from '../support/service-process';
import { AUTH } from '../support/test-app';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';

interface Started {
  child: ChildProcess;
  /** The URL it serves at, or undefined when it exited first. */
  url?: string;
  code?: number | null;
  stderr: string;
}

/** Starts bin/embedded-server.js on `dataDir`: resolves once it serves or has exited. */
async function startEmbedded(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, [EMBEDDED_SERVER, dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const started: Started = { child, stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (started.stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const line = once(createInterface({ input: child.stdout }), 'line').then(([text]) => text as string);
  const first = await Promise.race([line, exited.then((code) => ({ code }))]);
  if (typeof first === 'string') started.url = (JSON.parse(first) as { url: string }).url;
  else started.code = first.code;
  return started;
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  const exited = once(started.child, 'exit');
  // It stops when its standard input closes.
  started.child.stdin!.end();
  await exited;
}

/** Every path under `dir` (and `dir`) whose mode gives anything to group or others. */
function openToOthers(dir: string): string[] {
  const open = (statSync(dir).mode & 0o077) !== 0 ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) open.push(...openToOthers(path));
    else if ((lstatSync(path).mode & 0o077) !== 0) open.push(path);
  }
  return open;
}

/** A refused start: exit 1 and one line on standard error that names DATA_DIR, no stack. */
function expectOneLineRefusal(started: Started, dataDir: string, text: string): void {
  expect(started.url).toBeUndefined();
  expect(started.code).toBe(1);
  const lines = started.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`DATA_DIR ${dataDir}`);
  expect(lines[0]).toContain(text);
}

describe('the embedded database folder (DATA_DIR)', () => {
  let root: string;
  const running: Started[] = [];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'petstore-datadir-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stop));
  }, STARTUP_TIMEOUT_MS);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A whole data folder holding a table of `rows` rows, no longer served. */
  async function folderWithRows(name: string, rows: number): Promise<string> {
    const dataDir = join(root, name);
    const started = await startEmbedded(dataDir);
    const client = new Client({ connectionString: started.url });
    await client.connect();
    await client.query(`CREATE TABLE kept AS SELECT generate_series(1, ${rows}) AS n`);
    await client.end();
    await stop(started);
    return dataDir;
  }

  it(
    'is served by one of two processes started at the same moment; the other exits naming it',
    async () => {
      const dataDir = join(root, 'twins');
      const both = await Promise.all([startEmbedded(dataDir), startEmbedded(dataDir)]);
      running.push(...both);
      const serving = both.filter((s) => s.url);
      const refused = both.filter((s) => !s.url);
      console.log(
        `two starts on one DATA_DIR: ${serving.length} served, ${refused.length} refused (${refused.map((s) => s.stderr.trim()).join('; ')})`,
      );
      expect(serving).toHaveLength(1);
      expectOneLineRefusal(refused[0], dataDir, `is in use: process ${serving[0].child.pid} already serves its embedded PostgreSQL`);
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'is created owner-only: the folder 0700 and nothing inside readable by group or others',
    async () => {
      const dataDir = join(root, 'fresh');
      const started = await startEmbedded(dataDir);
      running.push(started);
      expect(started.url).toBeDefined();
      const open = openToOthers(dataDir);
      console.log(`fresh DATA_DIR: folder ${(statSync(dataDir).mode & 0o777).toString(8)}, ${open.length} paths open to group or others`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(open).toEqual([]);
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'makes a data folder that is open to others owner-only at start, and says so',
    async () => {
      const dataDir = await folderWithRows('opened', 1);
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
    },
    2 * STARTUP_TIMEOUT_MS,
  );

  it(
    'refuses a folder missing only PG_VERSION, never creating a database over its data, and serves it again once restored',
    async () => {
      const dataDir = await folderWithRows('partial', 300);
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
    3 * STARTUP_TIMEOUT_MS,
  );

  it('refuses a non-empty folder that holds something else', async () => {
    const dataDir = join(root, 'other');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'notes.txt'), 'not a database');
    const refused = await startEmbedded(dataDir);
    running.push(refused);
    expectOneLineRefusal(refused, dataDir, 'missing global/pg_control, base, pg_wal, PG_VERSION');
    expect(readdirSync(dataDir).sort()).toEqual(['notes.txt']);
  });

  it(
    'stops the start of a damaged folder with one line naming it',
    async () => {
      const dataDir = await folderWithRows('damaged', 1);
      truncateSync(join(dataDir, 'global', 'pg_control'), 0);
      const refused = await startEmbedded(dataDir);
      running.push(refused);
      console.log(`damaged DATA_DIR: ${refused.stderr.trim()}`);
      expectOneLineRefusal(refused, dataDir, 'cannot be used by the embedded PostgreSQL');
    },
    2 * STARTUP_TIMEOUT_MS,
  );

  it(
    'keeps every acknowledged write when its service is killed (SIGKILL), and starts again at once on the same folder',
    async () => {
      const dataDir = join(root, 'killed');
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
      expect(await first.stop('SIGKILL')).toBeNull();
      const restarted = performance.now();
      const second = await startServiceProcess({ DATA_DIR: dataDir });
      try {
        console.log(`restarted ${Math.round(performance.now() - restarted)} ms after SIGKILL`);
        const answer = await fetch(`${second.baseUrl}/v1/pets?limit=100`, { headers: AUTH });
        expect(((await answer.json()) as Array<{ id: number }>).map((pet) => pet.id)).toEqual(ids);
      } finally {
        await second.stop();
      }
    },
    3 * STARTUP_TIMEOUT_MS,
  );
});
