import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'yaml';
import { onPath } from '../support/processes';

const ROOT = join(__dirname, '..', '..');
const SECRETS = { POSTGRES_PASSWORD: 'pw', CURSOR_SECRET: 'cs', METRICS_TOKEN: 'mt' };
const FILES: [string, Record<string, string>][] = [
  ['docker-compose.yml', SECRETS],
  ['deploy/docker-compose.yml', { ...SECRETS, REDIS_PASSWORD: 'rp' }],
];

/** `docker-compose config` (Debian's docker-compose: the file is read, never run) with exactly `env`. */
function config(file: string, env: Record<string, string>) {
  const run = spawnSync('docker-compose', ['-f', file, 'config'], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

const installed = onPath('docker-compose');

/** The Compose files as shipped: secrets without defaults, the API only behind HAProxy. */
(installed ? describe : describe.skip)('the Compose files (docker-compose config)', () => {
  describe.each(FILES)('%s', (file, secrets) => {
    it('renders with its secrets; the API publishes no port, HAProxy does', () => {
      const run = config(file, secrets);
      expect(run.err).not.toMatch(/WARN|error/i);
      expect(run.status).toBe(0);
      const services = (parse(run.out) as { services: Record<string, { ports?: unknown[]; environment: Record<string, string> }> }).services;
      expect(services.api.ports).toBeUndefined();
      expect(services.haproxy.ports).toHaveLength(1);
      expect(services.api.environment.TRUST_PROXY).toMatch(/^172\.\d+\.0\.10$/);
    });

    it.each(Object.keys(secrets))('refuses to start without %s, naming it in a hint a shell can run', (name) => {
      const run = config(file, Object.fromEntries(Object.entries(secrets).filter(([key]) => key !== name)));
      expect(run.status).not.toBe(0);
      expect(run.err).toContain(`set ${name}`);
      // `$$(…)` in a hint prints as is, and a shell reads $$ as its own process id.
      expect(run.err).not.toContain('$$');
    });
  });
});
