import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/config';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { buildOpenApiDocument } from '../docs/swagger';

/** `pnpm openapi:snapshot`: the served document with the tests' configuration, into docs/openapi.json or `--output <file>`. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { output: { type: 'string' } } });
  const config = loadConfig({ NODE_ENV: 'test', API_KEYS: 'snapshot-key-0123456789abcdef' });
  const database = await startEmbeddedPostgres('memory://');
  const app = await createApp(config, { url: database.url, embedded: true });
  try {
    const target = values.output ?? resolve(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json');
    writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
    console.log(`wrote ${values.output ?? 'docs/openapi.json'}`);
  } finally {
    await app.close();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
