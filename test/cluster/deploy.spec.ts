import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { onPath } from '../support/processes';

/*
 * What the shipped deployment files promise beyond their schemas (the schemas: test/e2e/kubernetes.e2e-spec.ts).
 * PETSTORE_DEPLOY_ROOT points it at another checkout (e.g. an older one, to see what it lacked).
 */
const ROOT = process.env.PETSTORE_DEPLOY_ROOT ?? join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const kubectl = onPath('kubectl');

type K8s = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: any; data?: Record<string, string> };
const render = (dir: string): K8s[] => {
  const run = spawnSync('kubectl', ['kustomize', join(ROOT, 'deploy', 'kubernetes', dir)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return parseAllDocuments(run.stdout).map((d) => d.toJSON() as K8s);
};
const find = (objects: K8s[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** The per-source limits deploy/haproxy/haproxy.cfg presets, by variable name. */
export function haproxyLimits(): Record<string, number> {
  return Object.fromEntries([...read('deploy/haproxy/haproxy.cfg').matchAll(/^\s*presetenv (\w+) (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

(kubectl ? describe : describe.skip)('the production overlay (kubectl kustomize)', () => {
  let objects: K8s[];
  beforeAll(() => (objects = render('overlays/production')));

  it('trusts X-Forwarded-For from the ingress controller only, never a whole private range', () => {
    const trust = find(objects, 'ConfigMap', 'petstore-api-config')?.data?.TRUST_PROXY ?? '';
    expect(trust).not.toBe('');
    for (const entry of trust.split(',')) expect(Number(entry.split('/')[1] ?? 32)).toBeGreaterThanOrEqual(20);
  });

  it('admits port 3000 from selected pods only, and reaches PgBouncer, PostgreSQL, Redis and DNS by selector', () => {
    const policy = find(objects, 'NetworkPolicy', 'petstore-api')!.spec;
    for (const rule of policy.ingress) expect(rule.from?.length).toBeGreaterThan(0);
    for (const rule of policy.egress) expect(rule.to?.every((peer: object) => 'podSelector' in peer)).toBe(true);
    expect(find(objects, 'NetworkPolicy', 'petstore-pgbouncer')!.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('runs PgBouncer as the API runs (non-root, read-only, seccomp) with a PDB; both spread across nodes', () => {
    const pod = find(objects, 'Deployment', 'petstore-pgbouncer')!.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(find(objects, 'PodDisruptionBudget', 'petstore-pgbouncer')).toBeDefined();
    for (const name of ['petstore-api', 'petstore-pgbouncer']) {
      const spread = find(objects, 'Deployment', name)!.spec.template.spec.topologySpreadConstraints ?? [];
      expect(spread.map((c: { topologyKey: string }) => c.topologyKey)).toContain('kubernetes.io/hostname');
    }
  });

  it('names no Redis it does not define, and no scrape that cannot send the metrics token', () => {
    const config = find(objects, 'ConfigMap', 'petstore-api-config')!.data!;
    if (config.REDIS_URL) expect(objects.some((o) => o.kind === 'Service' && o.metadata.name === 'redis')).toBe(true);
    const pod = find(objects, 'Deployment', 'petstore-api')!.spec.template;
    expect(Object.keys(pod.metadata.annotations ?? {}).filter((key) => key.startsWith('prometheus.io/'))).toEqual([]);
    const scrape = parse(read('deploy/monitoring/prometheus-scrape.yml')) as { scrape_configs: { job_name: string; authorization: object }[] };
    expect(scrape.scrape_configs[0]).toMatchObject({ job_name: 'petstore-api', authorization: { type: 'Bearer' } });
  });

  it('tags the images with the release version (what `pnpm release` gives libs/contracts/package.json)', () => {
    const { version } = JSON.parse(read('libs/contracts/package.json')) as { version: string };
    const kustomization = parse(read('deploy/kubernetes/overlays/production/kustomization.yaml')) as { images: { newTag: string }[] };
    expect(kustomization.images.map((image) => image.newTag)).toEqual([version, version]);
  });

  it('limits each source at the ingress as deploy/haproxy does', () => {
    const limits = haproxyLimits();
    const annotations = find(objects, 'Ingress', 'petstore-api')!.metadata.annotations!;
    expect(Number(annotations['nginx.ingress.kubernetes.io/limit-connections'])).toBe(limits.HAPROXY_SOURCE_CONNECTIONS);
    expect(Number(annotations['nginx.ingress.kubernetes.io/limit-rps']) * 10).toBe(limits.HAPROXY_SOURCE_REQUESTS_PER_10S);
    expect(annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('64k');
  });
});

describe('docs/operating.md gives the numbers of the files it describes', () => {
  const docs = () => read('docs/operating.md');
  const edge = () => docs().split('## The edge: per-source limits')[1]?.split('\n## ')[0] ?? '';
  const timeout = (name: string) => Number(new RegExp(`^\\s*timeout ${name} (\\d+)s$`, 'm').exec(read('deploy/haproxy/haproxy.cfg'))?.[1]);

  it("the edge's limits, as deploy/haproxy/haproxy.cfg sets them", () => {
    const limits = haproxyLimits();
    const table = edge();
    expect(table).toContain(`| open connections | ${limits.HAPROXY_SOURCE_CONNECTIONS} (\`HAPROXY_SOURCE_CONNECTIONS\`)`);
    expect(table).toContain(`| requests | ${limits.HAPROXY_SOURCE_REQUESTS_PER_10S} in any 10 s`);
    expect(table).toContain(`| answers 401 | ${limits.HAPROXY_SOURCE_AUTH_FAILURES_PER_MINUTE} in a minute`);
    expect(table).toContain(`| idle keep-alive | ${timeout('http-keep-alive')} s`);
    expect(table).toContain(`| request head (and a POST body) | ${timeout('http-request')} s`);
    expect(table).toContain(`| idle client | ${timeout('client')} s`);
    expect(table).toContain(`\`maxconn\` ${/^\s*maxconn (\d+)$/m.exec(read('deploy/haproxy/haproxy.cfg'))?.[1]}`);
  });

  (kubectl ? it : it.skip)("the Kubernetes pod's memory request and request timeout, as the base sets them", () => {
    const objects = render('base');
    const container = find(objects, 'Deployment', 'petstore-api')!.spec.template.spec.containers[0];
    const config = find(objects, 'ConfigMap', 'petstore-api-config')!.data!;
    expect(docs()).toContain(`requests 250m CPU / ${container.resources.requests.memory}, limit ${container.resources.limits.memory}`);
    expect(docs()).toContain(`\`REQUEST_TIMEOUT_MS\` (${Number(config.REQUEST_TIMEOUT_MS) / 1000} s)`);
  });
});

describe('alerts, PgBouncer and the image as shipped', () => {
  it('counts neither 429 nor 503 as our errors, and warns on a sustained refusal rate', () => {
    const rules = (
      parse(read('deploy/monitoring/prometheus-alerts.yml')) as { groups: { rules: { alert: string; expr: string; labels: object }[] }[] }
    ).groups[0].rules;
    const errors = rules.find((rule) => rule.alert === 'PetstoreHighErrorRatio')!.expr;
    expect(errors).toMatch(/status!~"501\|503"/);
    expect(rules.find((rule) => rule.alert === 'PetstoreRefusalRate')).toMatchObject({ labels: { severity: 'warning' } });
  });

  it('has PgBouncer retry a failed login within a second (stock: 15 s)', () => {
    expect(/^server_login_retry = (\d+)$/m.exec(read('deploy/pgbouncer/pgbouncer.ini'))?.[1]).toBe('1');
  });

  it('takes the base image as a build argument, and names the commands it has', () => {
    for (const file of ['apps/api/Dockerfile', 'deploy/pgbouncer/Dockerfile']) {
      const dockerfile = read(file);
      expect(dockerfile).toMatch(/^ARG BASE_IMAGE=\S+$/m);
      expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]).every((image) => image === '${BASE_IMAGE}')).toBe(true);
    }
    expect(read('apps/api/Dockerfile')).toMatch(/\.\/keys\.sh/);
  });
});
