import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
/** The built key tool and service (`pnpm test` builds them first). */
export const KEYS_CLI = join(ROOT, 'apps', 'api', 'dist', 'keys', 'keys.cli.js');
export const MAIN = join(ROOT, 'apps', 'api', 'dist', 'main.js');

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
