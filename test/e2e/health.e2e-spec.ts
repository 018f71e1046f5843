import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { useTestApp } from '../support/test-app';

// Under test:cluster the app runs in other processes (and the balancer does not pass /health/*).
const inProcess = process.env.PETSTORE_TOPOLOGY === 'cluster' ? it.skip : it;

describe('health (e2e)', () => {
  const api = useTestApp();

  it('live answers 200 without an API key', async () => {
    const response = await api.request('GET', '/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('ready answers 200 without an API key when the database answers', async () => {
    const response = await api.request('GET', '/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  inProcess('answers a burst of probes with one shared database ping, not a pool connection each', async () => {
    const pool = (api.app.get(DataSource).driver as PostgresDriver).master as Pool;
    const connect = pool.connect.bind(pool);
    let checkouts = 0;
    pool.connect = ((...args: Parameters<Pool['connect']>) => {
      checkouts++;
      return connect(...args);
    }) as Pool['connect'];
    try {
      const started = performance.now();
      const statuses = await Promise.all(Array.from({ length: 100 }, async () => (await fetch(`${api.baseUrl}/health/ready`)).status));
      const elapsed = performance.now() - started;
      expect(statuses).toEqual(Array.from({ length: 100 }, () => 200));
      // At most one ping per 250 ms however many probes arrive (two when the burst straddles a refresh).
      expect(checkouts).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
      console.log(`100 concurrent readiness probes in ${Math.round(elapsed)} ms: ${checkouts} pool checkout(s)`);
    } finally {
      pool.connect = connect;
    }
  });

  it('is outside /v1', async () => {
    const response = await api.request('GET', '/v1/health/live');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });

  it('is listed in the document with a server outside /v1', async () => {
    const document = (await api.request('GET', '/docs/openapi.json')).body;
    expect(document.paths['/health/ready'].servers).toEqual([{ url: '/', description: 'This instance (outside /v1)' }]);
    expect(document.paths['/health/live'].get.operationId).toBe('live');
  });
});
