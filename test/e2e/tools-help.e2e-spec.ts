import { join } from 'node:path';
import { EMBEDDED_SERVER, KEYS_CLI, ROOT, run } from '../support/processes';

/**
 * Every script that takes options answers --help with its usage and exit 0, before doing any work: the
 * database URL given points where nothing listens, so a script that started working would fail.
 */
const NOWHERE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', DATA_DIR: '/nonexistent/petstore-help' };
const node = process.execPath;
const BIN = join(ROOT, 'apps', 'api', 'dist', 'bin');

describe('--help of every script with options', () => {
  it.each([
    ['the benchmark (pnpm bench)', 'pnpm', ['-s', 'bench', '--help']],
    ['bench/run.js', node, ['bench/run.js', '--help']],
    ['bench/soak.mjs', node, ['bench/soak.mjs', '--help']],
    ['the key tool', node, [KEYS_CLI, '--help']],
    ['the embedded server', node, [EMBEDDED_SERVER, '--help']],
    ['the embedded initdb', node, [join(BIN, 'embedded-initdb.js'), '--help']],
    ['the migrations (a release step)', node, [join(BIN, 'migrate.js'), '--help']],
    ['scripts/embedded-memory.js', node, ['scripts/embedded-memory.js', '--help']],
  ])('%s', async (_name, command, args) => {
    const result = await run(command, args, NOWHERE);
    // The key tool writes its usage on stderr (its stdout is for keys alone).
    expect({ code: result.code, usage: (result.stdout || result.stderr).split('\n')[0] }).toEqual({
      code: 0,
      usage: expect.stringMatching(/^Usage:/),
    });
  });

  it('refuses an unknown option of a benchmark with exit 2, before any work', async () => {
    const result = await run(node, ['bench/run.js', '--fast'], NOWHERE);
    expect(result).toMatchObject({ code: 2, stderr: 'Unknown argument "--fast" (see --help)\n' });
  });
});
