import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EMBEDDED_SERVER } from './processes';

/** bin/embedded-server.js on a DATA_DIR, as test/faults/embedded-data-dir*.e2e-spec.ts start it. */
export interface Started {
  child: ChildProcess;
  /** The URL it serves at, or undefined when it exited first. */
  url?: string;
  code?: number | null;
  stderr: string;
}

/** Starts bin/embedded-server.js on `dataDir`: resolves once it serves or has exited. */
export async function startEmbedded(dataDir: string): Promise<Started> {
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

export async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  const exited = once(started.child, 'exit');
  // It stops when its standard input closes.
  started.child.stdin!.end();
  await exited;
}

/** Every path under `dir` (and `dir`) whose mode gives anything to group or others. */
export function openToOthers(dir: string): string[] {
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
export function expectOneLineRefusal(started: Started, dataDir: string, text: string): void {
  expect(started.url).toBeUndefined();
  expect(started.code).toBe(1);
  const lines = started.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`DATA_DIR ${dataDir}`);
  expect(lines[0]).toContain(text);
}
