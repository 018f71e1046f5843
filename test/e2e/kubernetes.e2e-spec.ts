import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { VARIABLES as CONFIG_VARIABLES } from '../../apps/api/src/config/environment';
import { migrations } from '../../apps/api/src/database/migrations';
import { ROOT, run } from '../support/processes';
import { createTestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

/** kubectl (with its kustomize): on PATH, or KUBECTL; .ci/run finds or installs it. */
const KUBECTL = process.env.KUBECTL ?? (spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0 ? 'kubectl' : undefined);
/** .ci/run sets it, loudly, when kubectl could be neither found nor installed. */
const SKIP = process.env.PETSTORE_SKIP_KUBERNETES;
if (SKIP || (!KUBECTL && !process.env.CI))
  console.warn(`Kubernetes manifest suite SKIPPED: ${SKIP ?? 'no kubectl on PATH (set KUBECTL); under CI it runs and fails instead'}`);

const KUBERNETES = join(ROOT, 'deploy', 'kubernetes');
const OVERLAYS = readdirSync(join(KUBERNETES, 'overlays')).map((name) => join('overlays', name));
const VARIABLES = new Set<string>(CONFIG_VARIABLES.map((variable) => variable.name));

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };

function render(dir: string): { yaml: string; objects: K8sObject[] } {
  const result = spawnSync(KUBECTL!, ['kustomize', join(KUBERNETES, dir)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${result.stderr}`);
  return { yaml: result.stdout, objects: parseAllDocuments(result.stdout).map((d) => d.toJSON() as K8sObject) };
}

const find = (objects: K8sObject[], kind: string, name: string) => {
  const object = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!object) throw new Error(`no ${kind} ${name}`);
  return object;
};

(!SKIP && (KUBECTL || process.env.CI) ? describe : describe.skip).each(['base', ...OVERLAYS])('Kubernetes manifests: %s', (dir) => {
  let yaml: string;
  let objects: K8sObject[];
  beforeAll(() => ({ yaml, objects } = render(dir)));

  it('render and validate offline against the Kubernetes API schemas (kubernetes-models)', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'tools', 'validate-kubernetes.mjs')], { input: yaml, encoding: 'utf8' });
    expect([result.status, result.stdout.split('\n').filter((line) => line.startsWith('INVALID'))]).toEqual([0, []]);
    expect(objects.map((o) => o.kind).sort()).toEqual(
      expect.arrayContaining([
        'ConfigMap',
        'Deployment',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Job',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'Service',
      ]),
    );
  });

  it('every variable the API and its migrations get is one the service reads, from the ConfigMap or a Secret', () => {
    const config = find(objects, 'ConfigMap', 'petstore-api-config');
    expect(Object.keys(config.data ?? {}).filter((name) => !VARIABLES.has(name))).toEqual([]);
    for (const [kind, name] of [
      ['Deployment', 'petstore-api'],
      ['Job', 'petstore-api-migrate'],
    ]) {
      const container = find(objects, kind, name).spec.template.spec.containers[0];
      const env = (container.env ?? []) as { name: string; value?: string; valueFrom?: any }[];
      expect(env.filter((e) => !VARIABLES.has(e.name)).map((e) => e.name)).toEqual([]);
      expect(env.filter((e) => !e.valueFrom?.secretKeyRef && !e.valueFrom?.configMapKeyRef).map((e) => e.name)).toEqual([]);
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'petstore-api-config' } }]);
      expect(env.map((e) => e.name)).toEqual(expect.arrayContaining(['DATABASE_URL', 'DATABASE_DIRECT_URL']));
    }
    // PgBouncer's variables are the ones its entrypoint (deploy/pgbouncer) reads.
    const entrypoint = readFileSync(join(ROOT, 'deploy', 'pgbouncer', 'entrypoint.sh'), 'utf8');
    const pgbouncer = find(objects, 'Deployment', 'petstore-pgbouncer').spec.template.spec.containers[0];
    for (const { name } of pgbouncer.env as { name: string }[]) expect([name, entrypoint.includes(`$${name}`)]).toEqual([name, true]);
  });

  it("probes are the app's health paths on its port; the grace period covers the drain and a request", () => {
    const config = find(objects, 'ConfigMap', 'petstore-api-config').data!;
    const pod = find(objects, 'Deployment', 'petstore-api').spec.template.spec;
    const [container] = pod.containers;
    const paths = Object.keys((JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as { paths: object }).paths);
    expect(container.ports).toEqual([{ name: 'http', containerPort: Number(config.PORT) }]);
    for (const [probe, path] of [
      ['startupProbe', '/health/live'],
      ['livenessProbe', '/health/live'],
      ['readinessProbe', '/health/ready'],
    ]) {
      expect(container[probe].httpGet).toEqual({ path, port: 'http' });
      expect(paths).toContain(path);
    }
    const drainDeadlineMs = Number(/const DRAIN_DEADLINE_MS = (\d+);/.exec(readFileSync(join(ROOT, 'apps/api/src/bin/main.ts'), 'utf8'))?.[1]);
    const graceMs = pod.terminationGracePeriodSeconds * 1000;
    expect(graceMs).toBeGreaterThan(Number(config.DRAIN_DELAY_MS) + Number(config.REQUEST_TIMEOUT_MS));
    expect(graceMs).toBeGreaterThan(drainDeadlineMs);
    // Endpoints drop a draining pod after the readiness probe failed failureThreshold times: within the drain delay.
    const readiness = container.readinessProbe;
    expect(readiness.periodSeconds * readiness.failureThreshold * 1000).toBeLessThan(Number(config.DRAIN_DELAY_MS));
  });

  it('API pods and the migration Job: non-root, read-only root filesystem, no capabilities, resources set', () => {
    for (const [kind, name] of [
      ['Deployment', 'petstore-api'],
      ['Job', 'petstore-api-migrate'],
    ]) {
      const pod = find(objects, kind, name).spec.template.spec;
      const [container] = pod.containers;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits.memory).toEqual(expect.any(String));
      expect(pod.automountServiceAccountToken).toBe(false);
    }
    // The image's user (Dockerfile: USER node) is uid 1000 in node's images.
    expect(readFileSync(join(ROOT, 'apps', 'api', 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
  });

  it("the migration Job runs the image's migrate tool; the PDB and the HPA target the API; the NetworkPolicy selects its pods", () => {
    const job = find(objects, 'Job', 'petstore-api-migrate').spec.template.spec.containers[0];
    expect(job.command).toEqual(['node', 'dist/bin/migrate.js']);
    expect(existsSync(join(ROOT, 'apps', 'api', 'src', 'bin', 'migrate.ts'))).toBe(true);
    const labels = find(objects, 'Deployment', 'petstore-api').spec.template.metadata.labels;
    expect(find(objects, 'PodDisruptionBudget', 'petstore-api').spec.selector.matchLabels).toEqual(labels);
    expect(find(objects, 'NetworkPolicy', 'petstore-api').spec.podSelector.matchLabels).toEqual(labels);
    expect(find(objects, 'HorizontalPodAutoscaler', 'petstore-api').spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'petstore-api',
    });
    const replicas = find(objects, 'Deployment', 'petstore-api').spec.replicas;
    expect(find(objects, 'PodDisruptionBudget', 'petstore-api').spec.minAvailable).toBeLessThan(replicas);
  });
});

(process.env.DATABASE_URL ? describe : describe.skip)('the migrate tool the Job runs (e2e)', () => {
  it('applies every migration on the direct URL, and again finds nothing to do', async () => {
    const database = await createTestDatabase();
    try {
      const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/pooler-not-used', DATABASE_DIRECT_URL: database.url };
      for (let i = 0; i < 2; i++) {
        const result = await run(process.execPath, [join(ROOT, 'apps', 'api', 'dist', 'bin', 'migrate.js')], env);
        expect([result.code, result.stderr]).toEqual([0, 'Migrations applied\n']);
      }
      const applied = await run('psql', [database.url, '-Atc', 'SELECT count(*) FROM migrations'], {});
      expect(Number(applied.stdout)).toBe(migrations.length);
    } finally {
      await database.drop();
    }
  });
});
