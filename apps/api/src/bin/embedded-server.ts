import { DatabaseUnusableError } from '../database/database-check';
import { startEmbeddedPostgres } from '../database/embedded-postgres';

/** The embedded PostgreSQL alone, its URL printed as one JSON line: for the tests, and for `psql` on the data. */
async function main(): Promise<void> {
  if (process.argv[2] === '--help' || process.argv[2] === '-h')
    return void process.stdout.write(
      'Usage: node apps/api/dist/bin/embedded-server.js [DATA_DIR | memory://]\n  Serves the embedded PostgreSQL and prints {"url": …} on one line; stops on SIGTERM or when stdin closes.\n',
    );
  const embedded = await startEmbeddedPostgres(process.argv[2] ?? 'memory://');
  for (const notice of embedded.notices) process.stderr.write(`${notice}\n`);
  process.stdout.write(`${JSON.stringify({ url: embedded.url })}\n`);
  const stop = () => void embedded.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Die with the parent when it goes away without a signal.
  process.stdin.on('end', stop);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  console.error(error instanceof DatabaseUnusableError ? error.message : error);
  process.exit(1);
});
