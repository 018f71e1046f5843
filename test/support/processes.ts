import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
/** The built executables of apps/api/src/bin/ (`pnpm test` builds them first). */
const BIN = join(ROOT, 'apps', 'api', 'dist', 'bin');
export const MAIN = join(BIN, 'main.js');
export const KEYS_CLI = join(BIN, 'keys.js');
export const EMBEDDED_SERVER = join(BIN, 'embedded-server.js');

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with only the given variables (and PATH) in its environment. */
export async function run(command: string, args: string[], env: Record<string, string>): Promise<ToolRun> {
  const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** Runs a command synchronously; on failure the error carries what it printed (tsc reports on stdout). */
export function runOrThrow(command: string, args: string[], cwd: string, options: { timeout?: number; env?: Record<string, string> } = {}): string {
  try {
    const env = options.env && { ...process.env, ...options.env };
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: options.timeout ?? 120000, env });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

/** Whether an executable `name` is on PATH: a suite decides what to skip without running anything at import. */
export function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return dir !== '';
    } catch {
      return false;
    }
  });
}

/** A loopback port nothing listens on now (for a child whose output cannot tell the port it was given). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * Whether a process has not ended. An orphan that ended stays a zombie until PID 1 reaps it, which this
 * machine's PID 1 does only every 2 s or so (kill(pid, 0) still succeeds then): a zombie counts as ended.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}
