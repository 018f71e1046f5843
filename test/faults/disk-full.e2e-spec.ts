import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, run } from '../support/processes';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';
import { AUTH } from '../support/test-key';

/**
 * The embedded database on a small file system (a tmpfs this suite mounts, so it needs root) that is
 * full or read-only: the start stops with one line naming DATA_DIR. Independent of DATABASE_URL.
 */
const MB = 1024 * 1024;
const describeAsRoot = process.getuid?.() === 0 ? describe : describe.skip;

describeAsRoot('the embedded database on a full or read-only folder (a 64 MB tmpfs)', () => {
  let mountPoint: string;
  let dataDir: string;
  const free = () => {
    const stats = statfsSync(mountPoint);
    return stats.bavail * stats.bsize;
  };
  const start = () => run(process.execPath, [MAIN], { NODE_ENV: 'test', API_KEYS: AUTH.authorization.slice(7), PORT: '0', DATA_DIR: dataDir });

  beforeAll(() => {
    mountPoint = mkdtempSync(join(tmpdir(), 'petstore-disk-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint]);
    if (mounted.status !== 0) throw new Error(`mounting a tmpfs failed: ${mounted.stderr}`);
    dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
  });
  afterAll(() => {
    spawnSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  /** One line on standard error naming DATA_DIR, exit 1, no stack. */
  const expectOneLine = (started: { code: number | null; stderr: string }, text: RegExp) => {
    expect(started.code).toBe(1);
    const lines = started.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(text);
  };

  it(
    'stops the start on a full folder, saying how much it has and needs',
    async () => {
      const filler = join(mountPoint, 'filler');
      spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', `count=${Math.floor(free() / MB) - 10}`]);
      try {
        const started = await start();
        console.log(`full DATA_DIR: ${started.stderr.trim()}`);
        expectOneLine(started, new RegExp(`^DATA_DIR ${dataDir} .*full`));
      } finally {
        rmSync(filler, { force: true });
      }
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'stops the start on a read-only folder',
    async () => {
      spawnSync('mount', ['-o', 'remount,ro', mountPoint]);
      try {
        const started = await start();
        console.log(`read-only DATA_DIR: ${started.stderr.trim()}`);
        expectOneLine(started, new RegExp(`^DATA_DIR ${dataDir} cannot be used by the embedded PostgreSQL: it is not writable \\(EROFS\\)`));
      } finally {
        spawnSync('mount', ['-o', 'remount,rw', mountPoint]);
      }
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'stops the start on a read-only folder open to other users, saying it cannot be made owner-only',
    async () => {
      chmodSync(dataDir, 0o755);
      spawnSync('mount', ['-o', 'remount,ro', mountPoint]);
      try {
        const started = await start();
        expectOneLine(started, new RegExp(`^DATA_DIR ${dataDir} is open to other users and cannot be made owner-only: EROFS`));
      } finally {
        spawnSync('mount', ['-o', 'remount,rw', mountPoint]);
        chmodSync(dataDir, 0o700);
      }
    },
    STARTUP_TIMEOUT_MS,
  );
});
