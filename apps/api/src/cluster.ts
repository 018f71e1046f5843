import cluster from 'node:cluster';
import { AppConfig } from './config/config';
import { aggregateWorkerMetrics } from './observability/cluster-metrics';

/**
 * Opt-in (`WEB_CONCURRENCY` > 1, PostgreSQL server only): this process becomes a supervisor of that many
 * service processes sharing the port, so one instance uses every core. Returns true in the supervisor,
 * which then serves nothing itself; false in a worker or when running single-process.
 */
export function superviseWorkers(config: AppConfig, webConcurrency: number): boolean {
  if (webConcurrency <= 1 || !cluster.isPrimary) return false;
  let stopping = false;
  if (config.metrics.enabled) aggregateWorkerMetrics();
  const fork = () => cluster.fork();
  // The first worker applies the migrations alone; the others start once it listens.
  fork().once('listening', () => {
    for (let i = 1; i < webConcurrency; i += 1) fork();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}): starting another`);
    setTimeout(fork, 1000); // not a tight loop when every start fails
  });
  // Each worker drains its own requests on SIGTERM; the supervisor ends when the last one has.
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return true;
}
