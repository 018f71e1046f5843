import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { MAIN, freePort } from '../support/processes';
import { sleep } from '../support/load';
import { createServiceDatabase, serviceEnv, spawnInTerminal } from '../support/service-process';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';
import { AUTH } from '../support/test-key';

/** Standard output as the built service finds it: refusing writes, a pipe, a terminal. What the request lines hold is logging.e2e-spec.ts. */
describe('standard output refusing writes (a full disk: /dev/full)', () => {
  it(
    'keeps the service answering; stderr says once that lines are dropped',
    async () => {
      const database = await createServiceDatabase();
      const port = await freePort(); // stdout cannot tell the port the system chose
      const env = serviceEnv({ ...database.env, LOG_FORMAT: 'json', PORT: String(port) });
      const full = openSync('/dev/full', 'w');
      const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', full, 'pipe'] });
      closeSync(full);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, 'exit');
      const alive = () => {
        if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${stderr}`);
      };
      const list = () => fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, { headers: AUTH });
      try {
        // Until it listens, then past several of the log's 200 ms flushes: ENOSPC thrown from one killed it.
        while (!(await list().catch(() => undefined))) {
          alive();
          await sleep(100);
        }
        for (let i = 0; i < 5; i++, await sleep(150)) expect((await list()).status).toBe(200);
        alive();
        expect(stderr.match(/^standard output refuses log lines \(ENOSPC\): they are dropped while it does$/gm)).toHaveLength(1);
      } finally {
        child.kill('SIGTERM');
        await exited;
        await database.drop();
      }
    },
    STARTUP_TIMEOUT_MS,
  );
});

describe('readable log lines (LOG_FORMAT=pretty, or stdout a terminal)', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  beforeAll(async () => {
    database = await createServiceDatabase();
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await database?.drop();
  });

  /** `12:04:05.120` then the level: pino-pretty's line, colours aside. */
  const PRETTY = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN|ERROR|DEBUG): /;
  // eslint-disable-next-line no-control-regex -- colour codes start with ESC
  const ANSI = /\u001b\[[0-9;]*m/g;
  const isJson = (line: string) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      return false;
    }
  };

  /**
   * Starts the built service, inside a pseudo-terminal (util-linux `script`) when `terminal`, and
   * returns what it wrote up to its start banner's last line; then stops it.
   */
  async function startLines(env: Record<string, string>, terminal: boolean): Promise<string[]> {
    const fullEnv = { ...database.env, ...env };
    const child = terminal
      ? spawnInTerminal(fullEnv)
      : spawn(process.execPath, [MAIN], { env: serviceEnv(fullEnv), detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line.replace(/\r$/, ''));
        if (line.includes('Database: ')) resolve();
      });
      void exited.then(() => reject(new Error(`the service exited before its banner: ${lines.join('\n')}`)));
    });
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    return lines;
  }

  it(
    'LOG_FORMAT=pretty: time, level, context and message, one banner item a line, never JSON',
    async () => {
      const lines = await startLines({ LOG_FORMAT: 'pretty' }, false);
      expect(lines.filter(isJson)).toEqual([]);
      expect(lines.filter((line) => !PRETTY.test(line))).toEqual([]);
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/\] INFO: \[Main\] Pet Store API listening on http:\/\/127\.0\.0\.1:\d+\/v1$/),
          expect.stringMatching(/\] INFO: \[Main\] Swagger UI: http:\/\/127\.0\.0\.1:\d+\/docs /),
          expect.stringMatching(/\] INFO: \[RouterExplorer\] Mapped \{\/health\/live, GET\} route$/),
        ]),
      );
      expect(lines.join('\n')).not.toContain('/v1/health');
      expect(lines.join('\n')).not.toMatch(ANSI); // no colours into a pipe
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'is the default in a terminal, in colour; LOG_FORMAT=json there still gives JSON lines',
    async () => {
      const pretty = await startLines({}, true);
      expect(pretty.join('\n')).toMatch(ANSI);
      const plain = pretty.map((line) => line.replace(ANSI, ''));
      expect(plain.filter((line) => !PRETTY.test(line))).toEqual([]);
      expect(plain).toEqual(expect.arrayContaining([expect.stringMatching(/\[Main\] Pet Store API listening on http:\/\/127\.0\.0\.1:\d+\/v1$/)]));

      const json = await startLines({ LOG_FORMAT: 'json' }, true);
      expect(json.filter((line) => !isJson(line))).toEqual([]);
    },
    2 * STARTUP_TIMEOUT_MS,
  );
});
