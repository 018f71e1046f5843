import { Agent, request } from 'node:http';
import { sleep } from '../support/load';

export interface FloodOptions {
  baseUrl: string;
  /** The flood's own loopback source address (e.g. 127.0.0.2), so per-source limits tell it from the client beside it. */
  localAddress: string;
  paths: string[];
  connections: number;
  durationMs: number;
  /** A bound on the whole flood, whatever the duration. */
  maxRequests: number;
}

/**
 * Unauthenticated requests as fast as `connections` keep-alive connections allow, for `durationMs`:
 * what each was answered (0: the connection was refused or reset).
 */
export async function flood(options: FloodOptions): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const { hostname, port } = new URL(options.baseUrl);
  const deadline = Date.now() + options.durationMs;
  let sent = 0;
  const one = (path: string) => getFrom(options.localAddress, `http://${hostname}:${port}${path}`, {}, agent);
  const connection = async (c: number) => {
    while (Date.now() < deadline && sent < options.maxRequests) {
      const status = await one(options.paths[sent++ % options.paths.length]);
      counts.set(status, (counts.get(status) ?? 0) + 1);
      // A refused connection comes back at once: a short pause keeps this loop from spinning the test's CPU.
      if (status === 0) await sleep(5 + (c % 5));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, c) => connection(c)));
  agent.destroy();
  return counts;
}

/** A GET sent from `localAddress`: the status it was answered (0: refused or reset). */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}, agent?: Agent): Promise<number> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise<number>((resolve) => {
    const req = request({ agent, host: hostname, port, path: pathname + search, headers, localAddress, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

export interface Answer {
  status: number;
  body: unknown;
  contentType: string | null;
  ms: number;
}

/** One client's paced requests (one every `intervalMs`) until `until` resolves. */
export async function pacedClient(url: string, headers: Record<string, string>, intervalMs: number, until: Promise<unknown>): Promise<Answer[]> {
  let stopped = false;
  void until.then(() => (stopped = true));
  const answers: Answer[] = [];
  while (!stopped) {
    answers.push(await timedGet(url, headers));
    await sleep(intervalMs);
  }
  return answers;
}

/** A GET and how long its answer took; a network failure is status 0. */
export async function timedGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // HAProxy's own pages are HTML
    }
    return { status: response.status, body, contentType: response.headers.get('content-type'), ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: String(error), contentType: null, ms: performance.now() - started };
  }
}
