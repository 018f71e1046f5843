import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/config';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { buildOpenApiDocument } from '../docs/swagger';

/** Where the committed snapshot of the document lives, relative to the repository root. */
const OPENAPI_SNAPSHOT = 'docs/openapi.json';

/** The document exactly as /docs/openapi.json serves it, in the committed snapshot's layout. */
function formatDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * `pnpm openapi:snapshot`: builds the document with the default configuration (the one the tests
 * use) on an in-memory embedded database and writes it to docs/openapi.json, or to `--output <file>`
 * (`pnpm openapi:breaking` compares such a copy with the released document).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { output: { type: 'string' } } });
  const config = loadConfig({ NODE_ENV: 'test', API_KEYS: 'snapshot-key-0123456789abcdef' });
  const database = await startEmbeddedPostgres('memory://');
  const app = await createApp(config, { url: database.url, embedded: true });
  try {
    const target = values.output ?? resolve(__dirname, '..', '..', '..', '..', OPENAPI_SNAPSHOT);
    writeFileSync(target, formatDocument(buildOpenApiDocument(app, config)));
    console.log(`wrote ${values.output ?? OPENAPI_SNAPSHOT}`);
  } finally {
    await app.close();
    await database.stop();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
