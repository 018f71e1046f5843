import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, run } from '../support/processes';
import { createServiceDatabase } from '../support/service-process';

// pnpm deploy copies some 200 packages; then two processes start on a shared 2-core machine.
jest.setTimeout(240_000);

/**
 * No Docker engine here: this runs the Dockerfile's own `pnpm deploy` line into a temporary directory,
 * checks what the final stage takes from it, and runs the key tool and the service from it, as the
 * image does (production dependencies only, no pnpm).
 */
const DOCKERFILE = readFileSync(join(ROOT, 'apps', 'api', 'Dockerfile'), 'utf8');
const [buildStage, finalStage] = DOCKERFILE.split(/^FROM /m).slice(1);
const PRODUCTION = {
  NODE_ENV: 'production',
  CURSOR_SECRET: 'an-image-test-cursor-secret-of-32-chars-or-more',
  METRICS_TOKEN: 'image-test-metrics-token-0123456789abcdef',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_FORMAT: 'json',
};

describe('the container image, without Docker (e2e)', () => {
  let dir: string;
  let app: string;
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-image-'));
    app = join(dir, 'app');
    const deploy = /^RUN (pnpm .*deploy --prod.*) \/deploy$/m.exec(buildStage)?.[1];
    expect(deploy).toBeDefined();
    const result = spawnSync('sh', ['-c', `${deploy} ${app}`], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
    if (result.status !== 0) throw new Error(`${deploy} failed:\n${result.stdout}${result.stderr}`);
    database = await createServiceDatabase();
  }, 200_000);
  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the final stage installs nothing, runs as a non-root user, and takes only what the deploy made', () => {
    expect(finalStage).not.toMatch(/\b(pnpm|npm|yarn) (install|i|add|ci)\b/);
    expect([...finalStage.matchAll(/^USER (\S+)$/gm)].at(-1)?.[1]).toBe('node');
    const sources = [...finalStage.matchAll(/^COPY --from=build (.+) \S+$/gm)].flatMap((m) => m[1].split(' '));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect([source, existsSync(join(app, source.replace(/^\/deploy\/?/, '')))]).toEqual([source, true]);
  });

  it('the key tool command the compose files and the README document is one the image has', () => {
    for (const file of ['deploy/.env.example', 'deploy/docker-compose.yml', 'docker-compose.yml', 'README.md']) {
      const commands = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/docker compose .*run --rm api (\S+) create --name/g)].map((m) => m[1]);
      expect([file, commands.length > 0]).toEqual([file, true]);
      expect(finalStage).toMatch(/^WORKDIR \/app$/m);
      for (const tool of commands) expect([file, tool, existsSync(join(app, tool))]).toEqual([file, tool, true]);
    }
  });

  it('holds production dependencies only: none of the test and lint tooling', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const api = JSON.parse(readFileSync(join(ROOT, 'apps', 'api', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const installed = readdirSync(join(app, 'node_modules', '.pnpm')).filter((entry) => entry.includes('@'));
    // What the production packages themselves ask for (ajv for fastify, typescript as @nestjs/swagger's optional peer) is theirs to have.
    const wanted = new Set(installed.flatMap((entry) => wantedBy(join(app, 'node_modules', '.pnpm', entry, 'node_modules'))));
    const tooling = Object.keys(root.devDependencies).filter(
      (name) => !(name in api.dependencies) && !name.startsWith('@petstore/') && !wanted.has(name),
    );
    expect(tooling).toEqual(expect.arrayContaining(['jest', 'eslint', 'playwright-core', '@redocly/cli']));
    const present = tooling.filter((name) => installed.some((entry) => entry.startsWith(`${name.replace('/', '+')}@`)));
    expect(present).toEqual([]);
    const size = spawnSync('du', ['-sm', join(app, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0];
    console.log(`image's node_modules: ${installed.length} packages, ${size} MB`);
  });

  it('the key tool entry of the image (./keys.sh) creates and lists keys; the service starts on them from the deployed files', async () => {
    const env = { ...PRODUCTION, ...database.env };
    const created = await run(join(app, 'keys.sh'), ['create', '--name', 'image'], env);
    expect([created.code, created.stderr]).toEqual([0, expect.stringContaining('Created API key 1 "image"')]);
    const key = created.stdout.trim();
    const listed = await run(join(app, 'keys.sh'), ['list', '--json'], env);
    expect((JSON.parse(listed.stdout) as { label: string }[]).map((k) => k.label)).toEqual(['image']);

    const service = spawn(join(app, 'start.sh'), [], { cwd: app, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    service.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = once(service, 'exit');
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        createInterface({ input: service.stdout }).on('line', (line) => {
          const match = /listening on (http:\/\/[^/\s"]+)/.exec(line);
          if (match) resolve(match[1]);
        });
        void exited.then(() => reject(new Error(`the service exited before listening: ${errors}`)));
      });
      expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
      expect((await fetch(`${baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await fetch(`${baseUrl}/docs`)).status).toBe(200);
    } finally {
      service.kill('SIGTERM');
      await exited;
    }
  });
});

/** The names the packages under `modules` depend on, in any way. */
function wantedBy(modules: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(modules)) {
    const packages = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => join(entry, name)) : [entry];
    for (const name of packages) {
      const file = join(modules, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) names.push(...Object.keys(manifest[field] ?? {}));
    }
  }
  return names;
}
