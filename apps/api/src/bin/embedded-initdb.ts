import { OWNER_ONLY_UMASK } from '../database/embedded-files';
import { createEmbeddedDatabase } from '../database/embedded-postgres';

/**
 * Creates the embedded PostgreSQL's files in DATA_DIR and exits: run by the service in a process of
 * its own on a first start, because PGlite's initdb holds a second WebAssembly PostgreSQL in memory
 * while it works (about 830 MB peak in one process, against under 300 MB for each apart).
 * Usage: node apps/api/dist/bin/embedded-initdb.js DATA_DIR
 */
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
