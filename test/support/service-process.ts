import { ChildProcess, ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { MAIN, ROOT } from './processes';
import { TEST_API_KEY } from './test-key';
import { copyOfTemplate, createTestDatabase } from './test-database';

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Every line the service wrote on standard output so far. */
  lines: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Everything the service wrote on standard error so far. */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the BUILT service (`node apps/api/dist/bin/main.js`) on a free port, as it runs in production;
 * with `pnpmStart`, as the README starts it (`pnpm start`), in a process group of its own as a terminal's
 * job is: `stop` then signals the whole group, as Ctrl-C does.
 */
export async function startServiceProcess(env: Record<string, string>, options: { pnpmStart?: boolean } = {}): Promise<ServiceProcess> {
  const group = options.pnpmStart === true;
  const [command, args] = group ? ['pnpm', ['start']] : [process.execPath, [MAIN]];
  const child = spawn(command, args, { cwd: ROOT, env: serviceEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: group });
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const match = /listening on (http:\/\/[^/\s"]+)/.exec(line);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening: ${errors}`)));
  });
  return {
    child,
    baseUrl,
    lines,
    exited,
    stderr: () => errors,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) process.kill(group ? -child.pid! : child.pid!, signal);
      return exited;
    },
  };
}

/** The built service's environment in the tests: a free port, the test key, info logs, no rate limit; `env` over it. */
export function serviceEnv(env: Record<string, string>): Record<string, string> {
  const base = { PATH: process.env.PATH ?? '', NODE: process.execPath, NODE_ENV: 'test', API_KEYS: TEST_API_KEY, PORT: '0', HOST: '127.0.0.1' };
  return { ...base, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', ...env };
}

/** The built service inside a pseudo-terminal of util-linux `script`, in a process group of its own; its output on stdout. */
export function spawnInTerminal(env: Record<string, string>): ChildProcessByStdio<null, Readable, null> {
  return spawn('script', ['-qefc', `'${process.execPath}' '${MAIN}'`, '/dev/null'], {
    env: serviceEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * The database for a built service: the suite's own on the server, else an embedded one in a folder of its own, a copy
 * of the run's migrated template (opening one costs a second of CPU), or empty for a `firstStart` (creating it, three).
 */
export async function createServiceDatabase({ firstStart = false } = {}): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url }, drop: () => database.drop() };
  }
  const copy = firstStart ? undefined : copyOfTemplate();
  const dataDir = copy?.dataDir ?? mkdtempSync(join(tmpdir(), 'petstore-service-'));
  return { env: { DATA_DIR: dataDir }, drop: async () => (copy ? copy.remove() : rmSync(dataDir, { recursive: true, force: true })) };
}
