import { Metrics, routeLabel } from './metrics';

/** The samples of one metric in the exposition text, as `labels value` lines. */
async function samples(metrics: Metrics, name: string): Promise<string[]> {
  return (await metrics.registry.metrics())
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => line.slice(name.length));
}

describe('Metrics', () => {
  it('labels requests by method, route template and status, and folds unmatched routes and odd methods', async () => {
    const metrics = new Metrics(true);
    metrics.observeRequest('GET', '/v1/pets/:petId', 200, 3);
    metrics.observeRequest('GET', '/v1/pets/:petId', 200, 5);
    metrics.observeRequest('GET', undefined, 404, 1);
    metrics.observeRequest('PROPFIND', undefined, 404, 1);
    expect(await samples(metrics, 'petstore_http_requests_total')).toEqual([
      '{method="GET",route="/v1/pets/{petId}",status="200"} 2',
      '{method="GET",route="unmatched",status="404"} 1',
      '{method="other",route="unmatched",status="404"} 1',
    ]);
    expect(await samples(metrics, 'petstore_http_request_duration_seconds_sum')).toEqual([
      '{method="GET",route="/v1/pets/{petId}",status="200"} 0.008',
      '{method="GET",route="unmatched",status="404"} 0.001',
      '{method="other",route="unmatched",status="404"} 0.001',
    ]);
  });

  it('spells route templates as the OpenAPI document does', () => {
    expect(routeLabel('/v1/pets/:petId')).toBe('/v1/pets/{petId}');
    expect(routeLabel('/docs/*')).toBe('/docs/*');
    expect(routeLabel('')).toBe('unmatched');
  });

  it('exports readiness (0 before the first answer) and counts each change of it: the flaps', async () => {
    const metrics = new Metrics(true);
    expect(await samples(metrics, 'petstore_ready')).toEqual([' 0']);
    expect(await samples(metrics, 'petstore_readiness_changes_total')).toEqual([' 0']);
    for (const ready of [true, true, false, false, true, false]) metrics.readiness(ready);
    expect(await samples(metrics, 'petstore_ready')).toEqual([' 0']);
    expect(await samples(metrics, 'petstore_readiness_changes_total')).toEqual([' 3']);
    metrics.readiness(true);
    expect(await samples(metrics, 'petstore_ready')).toEqual([' 1']);
  });

  it('exports the fixed series at 0 from the start, and reads the pool at each scrape', async () => {
    const metrics = new Metrics(true);
    expect(await samples(metrics, 'petstore_auth_refusals_total')).toEqual([
      '{reason="missing"} 0',
      '{reason="invalid"} 0',
      '{reason="forbidden"} 0',
    ]);
    let waiting = 0;
    metrics.watchPool(() => ({ totalCount: 10, idleCount: 2, waitingCount: waiting }));
    waiting = 3;
    expect(await samples(metrics, 'petstore_db_pool_waiting_requests')).toEqual([' 3']);
    // A statement's error series is exported at 0 from its first use, alongside the ok one.
    metrics.statement('pets_get')('ok');
    expect(await samples(metrics, 'petstore_db_statement_duration_seconds_count')).toEqual([
      '{statement="pets_get",outcome="ok"} 1',
      '{statement="pets_get",outcome="conflict"} 0',
      '{statement="pets_get",outcome="error"} 0',
    ]);
  });

  it('exports prom-client’s default process metrics', async () => {
    const text = await new Metrics(true).registry.metrics();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(text).toContain(`\n${name} `);
  });
});
