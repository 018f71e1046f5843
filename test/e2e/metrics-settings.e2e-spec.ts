import { METRICS_TOKEN, SCRAPE } from '../support/metrics-requests';
import { parseExposition, valueOf } from '../support/prometheus';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

// A real database on a shared 2-core machine: starting it may take a while under load.
jest.setTimeout(120_000);

/** /metrics under other settings than metrics.e2e-spec.ts's: turned off, and a quota the limiter reaches. */
describe('GET /metrics with METRICS_ENABLED=false (e2e)', () => {
  const api = useTestApp({ METRICS_ENABLED: 'false' });

  it('is an unknown route: 404 with the Error body', async () => {
    const response = await fetch(`${api.baseUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('refusals counted by the limiter (e2e)', () => {
  const api = useTestApp({ METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '2' });

  it('counts a 429 of the per-key quota', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${api.baseUrl}/v1/pets`, { headers: AUTH })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const samples = parseExposition(await (await fetch(`${api.baseUrl}/metrics`, { headers: SCRAPE })).text());
    expect(valueOf(samples, 'petstore_rate_limited_total', { limit: 'api_key' })).toBe(1);
  });
});
