import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../support/processes';
import { parseExposition } from '../support/prometheus';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

const METRICS_TOKEN = 'monitoring-e2e-4c1d8e2f7a3b9c0d5e6f';
const DASHBOARD = join(ROOT, 'deploy', 'monitoring', 'grafana-dashboard.json');
const RULES = join(ROOT, 'deploy', 'monitoring', 'prometheus-alerts.yml');
/** Series and labels Prometheus itself adds to every scrape. */
const PROMETHEUS_SERIES = new Set(['up']);
const TARGET_LABELS = new Set(['job', 'instance']);
/** A series selector: a name of the service's families (or Prometheus's `up`) and its matchers. */
const SELECTOR = /\b((?:petstore|process|nodejs)_[a-zA-Z0-9_:]*|up)\b(\{[^}]*\})?/g;

interface Expression {
  where: string;
  expr: string;
}

function dashboardExpressions(): Expression[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
  return dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })));
}

function ruleExpressions(): Expression[] {
  const rules = parseYaml(readFileSync(RULES, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
  return rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })));
}

/** Every series a dashboard panel or an alert rule names, with the label names it matches on. */
function selectors(expressions: Expression[]): { where: string; name: string; labels: string[] }[] {
  return expressions.flatMap(({ where, expr }) =>
    [...expr.matchAll(SELECTOR)].map((match) => ({
      where,
      name: match[1],
      labels: [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((label) => label[1]),
    })),
  );
}

describe('the Grafana dashboard and the Prometheus alert rules against the exposition (e2e)', () => {
  const api = useTestApp({ METRICS_TOKEN });
  /** Every exposed series name, with the label names its samples carry. */
  const exposed = new Map<string, Set<string>>();

  beforeAll(async () => {
    // Requests that make the per-route series appear: a success, an error, a refusal, a deprecated call, readiness.
    for (const [path, headers] of [
      ['/v1/pets', AUTH],
      ['/v1/pets/1', AUTH],
      ['/v1/pets', {}],
      ['/health/ready', {}],
    ] as const)
      await api.request('GET', path, { headers, contract: false });
    const response = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    for (const sample of parseExposition(await response.text())) {
      const labels = exposed.get(sample.name) ?? new Set<string>();
      for (const label of Object.keys(sample.labels)) labels.add(label);
      exposed.set(sample.name, labels);
    }
  });

  it.each([
    ['dashboard', dashboardExpressions],
    ['alert rules', ruleExpressions],
  ])('the %s name only series /metrics exposes, with labels those series carry', (_what, expressions) => {
    const found = selectors(expressions());
    expect(found.length).toBeGreaterThan(5);
    const unknown = found.filter(({ name }) => !exposed.has(name) && !PROMETHEUS_SERIES.has(name)).map(({ where, name }) => `${where}: ${name}`);
    expect(unknown).toEqual([]);
    const badLabels = found.flatMap(({ where, name, labels }) =>
      labels.filter((label) => !TARGET_LABELS.has(label) && !exposed.get(name)?.has(label)).map((label) => `${where}: ${name}{${label}}`),
    );
    expect(badLabels).toEqual([]);
  });

  it('together they cover errors and p99 by route, saturation, refusals, readiness flaps, instances up and deprecated calls', () => {
    const named = new Set(selectors([...dashboardExpressions(), ...ruleExpressions()]).map(({ name }) => name));
    expect([...named].sort()).toEqual(
      expect.arrayContaining([
        'petstore_http_requests_total',
        'petstore_http_request_duration_seconds_bucket',
        'petstore_db_pool_waiting_requests',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
        'petstore_rate_limited_total',
        'petstore_auth_refusals_total',
        'petstore_readiness_changes_total',
        'petstore_ready',
        'petstore_deprecated_calls_total',
        'up',
      ]),
    );
    const alerts = ruleExpressions().map(({ where }) => where);
    expect(new Set(alerts).size).toBe(alerts.length);
  });

  it('readiness is exported: 1 after a ready answer', async () => {
    expect((await api.request('GET', '/health/ready', { contract: false })).status).toBe(200);
    const samples = parseExposition(await (await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text());
    expect(samples.find((s) => s.name === 'petstore_ready')?.value).toBe(1);
    expect(samples.find((s) => s.name === 'petstore_readiness_changes_total')?.value).toBe(0);
  });
});
