import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Started, expectOneLineRefusal, openToOthers, startEmbedded, stop } from '../support/embedded-data-dir';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';

/**
 * A new or foreign DATA_DIR. A whole one (kept, opened, damaged, killed) is
 * embedded-data-dir-whole.e2e-spec.ts, so that the two files run side by side.
 */
describe('the embedded database folder (DATA_DIR): a new one', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'petstore-datadir-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  describe('two processes started at the same moment on a new folder', () => {
    // One creation serves both tests (creating the database costs seconds of CPU).
    let dataDir: string;
    let both: Started[] = [];
    beforeAll(async () => {
      dataDir = join(root, 'twins');
      both = await Promise.all([startEmbedded(dataDir), startEmbedded(dataDir)]);
    }, STARTUP_TIMEOUT_MS);
    afterAll(async () => {
      await Promise.all(both.map(stop));
    }, STARTUP_TIMEOUT_MS);

    it('is served by one of them; the other exits naming it', () => {
      const serving = both.filter((s) => s.url);
      const refused = both.filter((s) => !s.url);
      console.log(
        `two starts on one DATA_DIR: ${serving.length} served, ${refused.length} refused (${refused.map((s) => s.stderr.trim()).join('; ')})`,
      );
      expect(serving).toHaveLength(1);
      expectOneLineRefusal(refused[0], dataDir, `is in use: process ${serving[0].child.pid} already serves its embedded PostgreSQL`);
    });

    it('is created owner-only: the folder 0700 and nothing inside readable by group or others', () => {
      expect(both.some((s) => s.url)).toBe(true);
      const open = openToOthers(dataDir);
      console.log(`fresh DATA_DIR: folder ${(statSync(dataDir).mode & 0o777).toString(8)}, ${open.length} paths open to group or others`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(open).toEqual([]);
    });
  });

  it('refuses at once, in one line, a folder that cannot be created (under /proc)', async () => {
    // Node's recursive mkdir spun there forever, deaf to SIGTERM.
    const refused = await startEmbedded('/proc/petstore-data');
    expectOneLineRefusal(refused, '/proc/petstore-data', 'it cannot be created (ENOENT)');
  });

  it('refuses a non-empty folder that holds something else', async () => {
    const dataDir = join(root, 'other');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'notes.txt'), 'not a database');
    const refused = await startEmbedded(dataDir);
    try {
      expectOneLineRefusal(refused, dataDir, 'missing global/pg_control, base, pg_wal, PG_VERSION');
      expect(readdirSync(dataDir).sort()).toEqual(['notes.txt']);
    } finally {
      await stop(refused);
    }
  });
});
