import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_API_KEY } from './test-app';

const MAIN = join(__dirname, '..', '..', 'apps', 'api', 'dist', 'main.js');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Every line the service wrote on standard output so far. */
  lines: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the BUILT service (`node apps/api/dist/main.js`) on a free port, as it runs in production. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', API_KEYS: TEST_API_KEY, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
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
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
