import '../observability/tracing.setup'; // first: OpenTelemetry's NodeSDK patches http and pg as they load
import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/config';
import { DatabaseUnusableError, checkDatabase } from '../database/database-check';
import { databaseTarget } from '../database/database.options';

/** Stays under the 10 s an orchestrator typically waits before SIGKILL. */
const DRAIN_DEADLINE_MS = 8000;
/** Named with the other demands: whether the database holds a key is known only once it is open. */
const NO_KEY_YET =
  'API_KEYS is empty and the database is not opened until the above are set: unless it already holds a key, create one with `pnpm keys create --name <label>` (`./keys.sh create --name <label>` in the image; same DATABASE_URL or DATA_DIR) or set API_KEYS';

async function main(): Promise<void> {
  const config = loadConfig();
  // What needs no database is checked before the database is touched (no connection, no migration).
  const demands = config.productionDemands;
  if (demands.length > 0) throw new ConfigError(config.auth.apiKeys.length > 0 ? demands : [...demands, NO_KEY_YET]);
  if (config.database.url) await checkDatabase('DATABASE_URL', config.database.url);
  if (config.database.directUrl) await checkDatabase('DATABASE_DIRECT_URL', config.database.directUrl);
  // Nest and the app, loaded once the settings and the database passed: a refused start costs 0.3 s of CPU, not 1.5 s.
  // require, not import(): import() takes the ES module build of a dual package (nestjs-pino), a second copy beside the app's.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Logger } = require('@nestjs/common') as typeof import('@nestjs/common');
  const { PinoLogger } = require('nestjs-pino') as typeof import('nestjs-pino');
  const { createApp } = require('../app.factory') as typeof import('../app.factory');
  const { DrainState } = require('../http/drain') as typeof import('../http/drain');
  /* eslint-enable @typescript-eslint/no-require-imports */
  flushLog = () => (PinoLogger.root as typeof PinoLogger.root | undefined)?.flush(); // unset when the start failed before the logger
  // Loaded only to run: a service on DATABASE_URL never holds PGlite.
  const embedded = config.database.url
    ? undefined
    : await (await import('../database/embedded-postgres.js')).startEmbeddedPostgres(config.database.dataDir);
  const app = await createApp(config, databaseTarget(config, embedded?.url));
  await app.listen({ port: config.http.port, host: config.http.host }).catch(async (error: NodeJS.ErrnoException) => {
    await app.close();
    await embedded?.stop(); // not left for the next start to wait out its lock
    const why = { EADDRINUSE: 'another process listens there', ENOTFOUND: 'the host name does not resolve' }[error.code ?? ''];
    throw new ConfigError([`HOST ${config.http.host} and PORT ${config.http.port}: cannot listen there (${why ?? error.code ?? error.message})`]);
  });
  const { port } = app.getHttpServer().address() as { port: number }; // PORT=0: the port the system chose
  const base = `http://${config.http.host === '0.0.0.0' ? 'localhost' : config.http.host}:${port}`;
  const logger = new Logger('Main');
  for (const notice of embedded?.notices ?? []) logger.warn(notice);
  // One line each: a JSON line with \n escapes reads badly in a terminal and in a collector.
  logger.log(`Pet Store API listening on ${base}/v1`);
  logger.log(`Swagger UI: ${base}/docs (OpenAPI document: ${base}/docs/openapi.json)`);
  logger.log(
    `Database: ${embedded ? `embedded PostgreSQL, data in ${config.database.dataDir}` : `PostgreSQL from DATABASE_URL${config.database.pooling === 'transaction' ? ', through a transaction pooler' : ''}`}`,
  );

  // SIGTERM drains: readiness turns 503 for DRAIN_DELAY_MS (for the balancer to see), then requests in flight finish; the deadline cuts the rest.
  let stopping = false;
  let cut = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: finishing requests in flight, then stopping`);
    PinoLogger.root.flush(); // written now, not with the next 4 KiB: an operator watches for it
    const deadline = setTimeout(() => {
      logger.error(`still draining after ${DRAIN_DEADLINE_MS} ms: closing the remaining connections`);
      cut = true;
      app.getHttpServer().closeAllConnections();
      setTimeout(() => exit(1), 500).unref();
    }, DRAIN_DEADLINE_MS);
    deadline.unref();
    app.get(DrainState).begin();
    await new Promise((resolve) => setTimeout(resolve, config.http.drainDelayMs));
    await app.close();
    await embedded?.stop();
    exit(cut ? 1 : 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => void stop('SIGHUP')); // its terminal closed
}

/** Writes the log's buffered lines (up to 200 ms of them): process.exit runs no pending timer. None before Nest is loaded. */
let flushLog = (): void => undefined;

function exit(code: number): never {
  flushLog();
  process.exit(code);
}

main().catch((error: unknown) => {
  // A refusal we can word (settings, the database) is said in its own words, without a stack.
  console.error(error instanceof ConfigError || error instanceof DatabaseUnusableError ? error.message : error);
  exit(1);
});
