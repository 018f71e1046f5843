import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EMBEDDED_SERVER } from '../support/processes';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';

interface Started {
  child: ChildProcess;
  /** The URL it serves at, or undefined when it exited first. */
  url?: string;
  code?: number | null;
  stderr: string;
}

/** Starts bin/embedded-server.js on `dataDir`: resolves once it serves or has exited. */
async function startEmbedded(dataDir: string, asPid1 = false): Promise<Started> {
  const command = [process.execPath, EMBEDDED_SERVER, dataDir];
  // In a PID namespace of its own, as the service runs in a container: it is PID 1 there.
  if (asPid1) command.unshift('unshare', '--pid', '--fork', '--kill-child');
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
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
  // It stops when its standard input closes: a signal would not reach it as PID 1 behind unshare.
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
      expect(refused[0].code).toBe(1);
      expect(refused[0].stderr).toContain(`DATA_DIR ${dataDir} is in use: process ${serving[0].child.pid} already serves its embedded PostgreSQL`);
    },
    STARTUP_TIMEOUT_MS,
  );

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'starts as PID 1 over an owner file left by a killed PID 1 (needs root for a PID namespace), and removes socket folders left by killed processes',
    async () => {
      const dataDir = join(root, 'stale');
      mkdirSync(dataDir, { mode: 0o700 });
      writeFileSync(join(dataDir, 'embedded-postgres.json'), JSON.stringify({ pid: 1, url: 'postgres://gone' }));
      // A folder named by the current scheme for a pid that is gone, and one of the older scheme whose socket nobody listens on.
      const deadPid = join(tmpdir(), 'petstore-pg-4194300-AbCdEf');
      const oldScheme = join(tmpdir(), 'petstore-pg-XyZ123');
      for (const dir of [deadPid, oldScheme]) {
        mkdirSync(dir, { mode: 0o700 });
        writeFileSync(join(dir, '.s.PGSQL.5432'), '');
      }
      // Listened on, under a pid that does not exist in the new PID namespace: another suite's embedded
      // PostgreSQL, which this start once removed from under it.
      const listened = join(tmpdir(), 'petstore-pg-4194301-Listen');
      mkdirSync(listened, { mode: 0o700 });
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(join(listened, '.s.PGSQL.5432'), resolve));
      const started = await startEmbedded(dataDir, true);
      const kept = existsSync(listened);
      await new Promise((resolve) => server.close(resolve));
      rmSync(listened, { recursive: true, force: true });
      running.push(started);
      console.log(`owner file naming pid 1: ${started.url ? 'served' : `refused: ${started.stderr.trim()}`}`);
      expect(started.stderr).not.toContain('is in use');
      expect(started.url).toBeDefined();
      expect(started.stderr).toContain(`DATA_DIR ${dataDir}: replaced a stale embedded-postgres.json: it names this process's pid 1`);
      expect([existsSync(deadPid), existsSync(oldScheme), kept]).toEqual([false, false, true]);
      expect(existsSync(new URL(started.url!).searchParams.get('host')!)).toBe(true);
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
    'makes a folder that is open to others owner-only at start, and says so',
    async () => {
      const dataDir = join(root, 'opened');
      mkdirSync(dataDir, { mode: 0o700 });
      writeFileSync(join(dataDir, 'postgresql.auto.conf.bak'), 'x', { mode: 0o666 });
      chmodSync(join(dataDir, 'postgresql.auto.conf.bak'), 0o666);
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
    STARTUP_TIMEOUT_MS,
  );
});
