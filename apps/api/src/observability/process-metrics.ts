import type { Registry } from 'prom-client';

/**
 * prom-client's default metrics (its collectDefaultMetrics) but the GC duration histogram: that one keeps
 * a perf_hooks PerformanceObserver on every garbage collection (one per ~150 requests), and paired runs
 * measured it at 6–8 % more CPU per list or get request, more than every other metric together (see
 * docs/observability.md, Cost). GC pauses still show in the event-loop lag and the request durations.
 * The rest read the process at each scrape, but the event-loop delay monitor (a libuv timer, every
 * 10 ms; not measurable). The names are prom-client's own collector files (lib/metrics/), as its
 * collectDefaultMetrics loads them; a spec checks the list against its metricsList.
 */
export const PROCESS_COLLECTORS = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
];

export function collectProcessMetrics(registry: Registry): void {
  for (const name of PROCESS_COLLECTORS) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- prom-client exports no subset of its default metrics
    const collector = require(`prom-client/lib/metrics/${name}`) as (registry: Registry, config: object) => void;
    collector(registry, { eventLoopMonitoringPrecision: 10 });
  }
}
