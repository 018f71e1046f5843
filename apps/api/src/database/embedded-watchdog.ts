import { Worker } from 'node:worker_threads';
import { Client } from 'pg';

/**
 * The embedded PostgreSQL runs inside this process's JavaScript thread: a call into it that never
 * returns (as PGlite does when it cannot write its WAL) blocks everything, liveness and SIGTERM
 * included. A worker thread, which that does not block, watches the thread's heartbeat; after
 * `limitMs` without one it writes why on standard error and kills the process, so that its
 * supervisor starts it again (a start with too little disk space then says so and exits).
 */
export function startEmbeddedWatchdog(limitMs = 20_000): () => void {
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const seconds = () => Math.floor(performance.now() / 1000);
  Atomics.store(beat, 0, seconds());
  const heart = setInterval(() => Atomics.store(beat, 0, seconds()), 1000);
  heart.unref();
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const { writeSync } = require('node:fs');
     const [beat, limit, origin] = [workerData.beat, workerData.limitMs / 1000, workerData.origin];
     setInterval(() => {
       const now = Math.floor((Date.now() - origin) / 1000);
       if (now - Atomics.load(beat, 0) <= limit) return;
       writeSync(2, JSON.stringify({ level: 60, context: 'Watchdog', msg: 'The main thread has not run for ' + limit + ' s (the embedded PostgreSQL does not return, as when its disk is full): ending the process for its supervisor to restart it' }) + '\\n');
       process.kill(process.pid, 'SIGKILL');
     }, 1000);`,
    { eval: true, workerData: { beat, limitMs, origin: Date.now() - performance.now() } },
  );
  worker.unref();
  return () => {
    clearInterval(heart);
    void worker.terminate();
  };
}

/**
 * The other way PGlite can stop: its calls keep returning to the event loop but a statement never
 * completes. Asks it `SELECT 1` every few seconds on a connection of its own; after `limitMs` without
 * an answer, `onStuck` runs (the service then exits for its supervisor to restart it).
 */
export function watchEmbeddedAnswers(url: string, onStuck: () => void, limitMs = 20_000): () => void {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  let answeredAt = performance.now();
  let pending = false;
  const connected = client.connect().then(
    () => true,
    () => false,
  );
  const timer = setInterval(() => {
    if (performance.now() - answeredAt > limitMs) {
      clearInterval(timer);
      onStuck();
      return;
    }
    if (pending) return;
    pending = true;
    void connected.then(async (ok) => {
      if (ok)
        await client.query('SELECT 1').then(
          () => (answeredAt = performance.now()),
          () => undefined,
        );
      pending = false;
    });
  }, 2000);
  timer.unref();
  return () => {
    clearInterval(timer);
    void client.end().catch(() => undefined);
  };
}
