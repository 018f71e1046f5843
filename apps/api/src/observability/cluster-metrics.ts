import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const SCRAPE = 'petstore:metrics';
const TIMEOUT_MS = 5000;

interface ScrapeMessage {
  type: typeof SCRAPE;
  id: number;
  text?: string;
  error?: string;
}
const isScrape = (message: unknown): message is ScrapeMessage => (message as ScrapeMessage | null)?.type === SCRAPE;

/**
 * WEB_CONCURRENCY > 1: each worker counts on its own, and a scrape reaches one of them at random. So
 * the supervisor answers a worker's scrape with every worker's metrics summed (prom-client's
 * AggregatorRegistry, over the cluster's IPC channel): one scrape, the whole instance.
 */
export function aggregateWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isScrape(message)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPE, id: message.id, text }),
      (error: Error) => worker.send({ type: SCRAPE, id: message.id, error: error.message }),
    );
  });
}

let nextId = 0;

/** In a worker: offers `registry` to the supervisor's aggregation and returns a scrape of the whole instance. */
export function workerScrape(registry: Registry): () => Promise<string> {
  new AggregatorRegistry(); // answers the supervisor's requests for this worker's metrics
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, (message: ScrapeMessage) => void>();
  process.on('message', (message: unknown) => {
    if (isScrape(message)) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the supervisor did not answer the scrape'));
      }, TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (message.text !== undefined) resolve(message.text);
        else reject(new Error(`metrics of the workers could not be gathered: ${message.error}`));
      });
      process.send!({ type: SCRAPE, id });
    });
}
