import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, freePort } from '../support/processes';

/** Stoplight Prism's validating proxy (@stoplight/prism-cli, a devDependency), in front of the service. */
export interface PrismProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * The document as Prism can read it. Prism ignores a relative server (`/v1`), so the proxy is given the
 * upstream with its `/v1` and requests go to the proxy without it; the health checks, which live
 * outside `/v1` under their own server, are left out.
 */
export function documentForPrism(document: any, file: string): string {
  const copy = structuredClone(document);
  copy.servers = [{ url: '/' }];
  for (const path of Object.keys(copy.paths)) if (path.startsWith('/health/')) delete copy.paths[path];
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

/** Starts `prism proxy <document> <upstream>`: it forwards every request and reports violations in `sl-violations`. */
export async function startPrismProxy(documentFile: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules', '.bin', 'prism'),
    ['proxy', documentFile, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors=false'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The violations Prism found in the answer (location starting with "response"), from its `sl-violations` header. */
export function responseViolations(response: Response): { location: string[]; message: string }[] {
  const header = response.headers.get('sl-violations');
  const all = header ? (JSON.parse(header) as { location: string[]; message: string }[]) : [];
  return all.filter((violation) => violation.location[0] === 'response');
}
