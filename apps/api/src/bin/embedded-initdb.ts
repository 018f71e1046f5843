import { OWNER_ONLY_UMASK, createEmbeddedDatabase } from '../database/embedded-postgres';

/** Creates the embedded database in DATA_DIR: a process of its own, as initdb holds a second PostgreSQL in memory. */
const dataDir = process.argv[2];
if (!dataDir || dataDir === '--help' || dataDir === '-h') {
  (dataDir ? process.stdout : process.stderr).write(
    'Usage: node apps/api/dist/bin/embedded-initdb.js DATA_DIR\n  Creates the embedded PostgreSQL in DATA_DIR (the service does it on a first start).\n',
  );
  process.exit(dataDir ? 0 : 2);
}
process.umask(OWNER_ONLY_UMASK);
createEmbeddedDatabase(dataDir)
  .then((db) => db.close())
  .catch((error: unknown) => {
    // One line: the service quotes it.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
