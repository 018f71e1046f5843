import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from './bound-series';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED = [0.0005, 0.001, 0.003, 0.2, 7, 0.05];

/** The same observations in prom-client's own Histogram and Counter and in the bound ones, each in a registry. */
function pair(): { theirs: Registry; ours: Registry } {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ name: 't_seconds', help: 'h', labelNames: ['route', 'status'], buckets: BUCKETS, registers: [theirs] });
  const counter = new Counter({ name: 't_total', help: 'c', labelNames: ['route', 'status'], registers: [theirs] });
  const boundHistogram = new BoundHistogram('t_seconds', 'h', ['route', 'status'], BUCKETS).registerIn([ours]);
  const boundCounter = new BoundCounter('t_total', 'c', ['route', 'status']).registerIn([ours]);
  for (const [i, seconds] of OBSERVED.entries()) {
    const labels = { route: i % 2 ? '/v1/pets' : '/v1/pets/{petId}', status: '200' };
    histogram.labels(labels).observe(seconds);
    counter.labels(labels).inc();
    boundHistogram.bind(labels).observe(seconds);
    boundCounter.bind(labels).inc();
  }
  return { theirs, ours };
}

describe('BoundCounter and BoundHistogram', () => {
  it('expose the same text as prom-client’s Counter and Histogram fed the same observations', async () => {
    const { theirs, ours } = pair();
    const text = await ours.metrics();
    expect(text).toContain('t_seconds_bucket{le="0.01",route="/v1/pets/{petId}",status="200"} 2');
    expect(text).toBe(await theirs.metrics());
  });

  it('give the same series to the same label values, whatever their order', () => {
    const counter = new BoundCounter('x_total', 'x', ['a', 'b']);
    counter.bind({ a: '1', b: '2' }).inc();
    counter.bind({ b: '2', a: '1' }).inc(2);
    return expect(counter.get()).resolves.toMatchObject({ values: [{ labels: { a: '1', b: '2' }, value: 3 }] });
  });
});
