import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { EMBEDDED_SERVER } from './processes';

/** For beforeAll/afterAll: starting an embedded PostgreSQL and the app takes seconds, more on a busy 2-core machine. */
export const STARTUP_TIMEOUT_MS = 120_000;

export interface TestDatabase {
  url: string;
  embedded: boolean;
  drop(): Promise<void>;
}

/**
 * A database of its own for one suite: a fresh database on the server named by DATABASE_URL, or a
 * fresh in-memory embedded PostgreSQL when DATABASE_URL is not set. `drop` removes it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return startEmbeddedServer();
  const name = `petstore_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    embedded: false,
    async drop() {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The embedded PostgreSQL in a process of its own, as a server would be (built by `pnpm test`): on a copy
 * of the data folder jest.global-setup.js initialised for the run, else in memory (a fresh one costs
 * seconds of CPU).
 */
export async function startEmbeddedServer(): Promise<TestDatabase> {
  const copy = copyOfTemplate();
  const dataDir = copy?.dataDir ?? 'memory://';
  const child = spawn(process.execPath, [EMBEDDED_SERVER, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error('embedded PostgreSQL did not start');
    }),
  ])) as [string];
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    embedded: true,
    async drop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      copy?.remove();
    },
  };
}

/** A copy of the data folder jest.global-setup.js initialised and migrated for the run, when it did (no DATABASE_URL). */
export function copyOfTemplate(): { dataDir: string; remove(): void } | undefined {
  const runDir = process.env.PETSTORE_TEST_RUN_DIR;
  if (!runDir) return undefined;
  const folder = mkdtempSync(join(runDir, 'database-'));
  const dataDir = join(folder, 'data');
  cpSync(join(runDir, 'template'), dataDir, { recursive: true });
  return { dataDir, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
