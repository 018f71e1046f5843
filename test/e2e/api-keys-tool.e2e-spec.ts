import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eachLimited, expectNoPlainKey, keyTool } from '../support/keys-tool';
import { EMBEDDED_SERVER, KEYS_CLI, run } from '../support/processes';
import { useTestApp } from '../support/test-app';

// Real processes and databases on a shared 2-core machine: starting them may take a while under load.
jest.setTimeout(120_000);

/** Independent runs of the tool, a few at a time: each costs a second of CPU to start. */
const AT_ONCE = 4;

/** The key tool itself: its list, its refusals, rotation's expiry. What the service does with keys is api-keys.e2e-spec.ts. */
describe('API keys: the tool (e2e)', () => {
  const api = useTestApp();
  const { issued, keys, createKey, listed } = keyTool(api);

  it('list shows id, label, scopes, dates and never a key or its digest', async () => {
    await createKey('--name', 'first');
    const { id } = await createKey('--name', 'reader', '--scopes', 'pets:read', '--expires', '2030-01-01T00:00:00Z');
    const [rows, table] = await Promise.all([listed(), keys('list')]);
    const row = rows.find((r) => r.id === id)!;
    expect(row).toEqual({
      id,
      label: 'reader',
      scopes: ['pets:read'],
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: '2030-01-01T00:00:00.000Z',
      revokedAt: null,
      replacedBy: null,
      lastDeprecatedCallAt: null,
    });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID\s+LABEL\s+SCOPES\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED\s+REPLACED BY\s+LAST DEPRECATED CALL$/,
    );
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+reader\\s+pets:read\\s+\\S+\\s+-\\s+2030-01-01T00:00:00Z\\s+-\\s+-\\s+-$`, 'm'));
    expect(issued).toHaveLength(2);
    for (const key of issued) {
      expect(table.stdout + JSON.stringify(rows)).not.toContain(key);
      expect(table.stdout).not.toContain(key.slice(4));
    }
  });

  it('refuses bad input with a message and a non-zero exit, printing nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['create'], /--name <label> is required/],
      [['create', '--name', 'x', '--scopes', 'pets:delete'], /Unknown scope pets:delete/],
      [['create', '--name', 'x', '--expires', 'tomorrow'], /--expires must be an ISO 8601 date/],
      [['create', '--name', 'x', '--expires', '2001-01-01'], /--expires must be in the future/],
      [['revoke', '999999'], /No API key has the id 999999/],
      [['revoke', 'abc'], /"abc" is not an API key id/],
      [['rotate', '1', '--grace', '5 minutes'], /--grace must be a duration/],
      [['frobnicate'], /Unknown command "frobnicate"/],
    ];
    const results = await eachLimited(cases, AT_ONCE, ([args]) => keys(...args));
    cases.forEach(([args, message], index) => {
      const result = results[index];
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: expect.any(Number), stdout: '' });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    });
  });

  it('answers bad usage with one line and exit 2: unknown options and arguments, impossible or zoneless dates, unprintable labels', async () => {
    const cases: [string[], string][] = [
      [['rotate', '1', '--grace', '-1s'], "Option '--grace' argument is ambiguous."],
      [['list', '--frobnicate'], "Unknown option '--frobnicate'."],
      [['create', '--name', 'x', '--expires', '2099-02-31'], '--expires names a day that does not exist (got "2099-02-31")'],
      [['create', '--name', 'evil\u202Eyek'], '--name may hold visible characters and plain spaces only (U+202E is not one)'],
      [['create', '--name', 'bell\u0007'], '--name may hold visible characters and plain spaces only (U+0007 is not one)'],
      [['create'], '--name <label> is required: 1 to 100 characters'],
      [[], 'A command is required: create, list, revoke or rotate'],
      [['list', 'extra'], 'Unexpected argument "extra"'],
      [['create', 'ops', '--name', 'x'], 'Unexpected argument "ops"'],
      [['revoke', '1', '2'], 'Unexpected argument "2"'],
      // Local time would differ between two operators' machines.
      [['create', '--name', 'x', '--expires', '2099-01-01T00:00'], '--expires with a time needs its zone, Z or ±hh:mm (got "2099-01-01T00:00")'],
      // Each shows "ops" as "ops" in `keys list`: format characters (U+200B zero width space, U+2060, U+FEFF), the
      // default-ignorable U+034F (a combining mark) and U+3164 (a Hangul letter), a space that is not the plain one,
      // a mark on no visible base.
      [['create', '--name', '\u200Bops'], '--name may hold visible characters and plain spaces only (U+200B is not one)'],
      [['create', '--name', 'ops\u2060'], '--name may hold visible characters and plain spaces only (U+2060 is not one)'],
      [['create', '--name', 'o\uFEFFps'], '--name may hold visible characters and plain spaces only (U+FEFF is not one)'],
      [['create', '--name', 'o\u034Fps'], '--name may hold visible characters and plain spaces only (U+034F is not one)'],
      [['create', '--name', 'ops\u3164'], '--name may hold visible characters and plain spaces only (U+3164 is not one)'],
      [['create', '--name', 'o\u00A0ps'], '--name may hold visible characters and plain spaces only (U+00A0 is not one)'],
      [['create', '--name', 'ops \u0301'], '--name may hold visible characters and plain spaces only (U+0301 is not one)'],
      // An empty scope list is a mistake, never "every scope".
      [['create', '--name', 'x', '--scopes', ''], '--scopes: the list names no scope: the scopes are pets:read, pets:write, orders:read'],
      [['create', '--name', 'x', '--scopes', ','], '--scopes: the list names no scope: the scopes are pets:read, pets:write, orders:read'],
      [['create', '--name', 'x', '--scopes', ' '], '--scopes: the list names no scope: the scopes are pets:read, pets:write, orders:read'],
    ];
    const results = await eachLimited(cases, AT_ONCE, ([args]) => keys(...args));
    cases.forEach(([args, message], index) => {
      const result = results[index];
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toBe(`${message} (see: keys --help)\n`);
    });
    expect(
      await api.sql
        .query('SELECT label FROM api_keys WHERE label NOT IN ($1)', ['development key'])
        .then((r) => r.rows.filter((row) => /evil|bell|o.?ps|^x$/.test(row.label))),
    ).toEqual([]);
  });

  it('refuses a repeated option as bad usage rather than keep its last value, creating nothing', async () => {
    const cases: [string[], string][] = [
      [['create', '--name', 'repeated', '--scopes', 'pets:read', '--scopes', 'pets:write'], '--scopes'],
      [['create', '--name=repeated-a', '--name', 'repeated-b'], '--name'],
      [['create', '--name', 'repeated', '--expires', '2099-01-01T00:00:00Z', '--expires', '2098-01-01T00:00:00Z'], '--expires'],
      [['rotate', '999999', '--grace', '1h', '--grace', '2h'], '--grace'],
      [['list', '--json', '--json'], '--json'],
    ];
    const results = await eachLimited(cases, AT_ONCE, ([args]) => keys(...args));
    cases.forEach(([args, option], index) => {
      const stderr = `Option '${option}' may be given only once. (see: keys --help)\n`;
      expect({ args, ...results[index] }).toEqual({ args, code: 2, stdout: '', stderr });
    });
    expect((await api.sql.query(`SELECT label FROM api_keys WHERE label LIKE 'repeated%'`)).rows).toEqual([]);
  });

  it('takes a label of letters, marks on them, digits, symbols and spaces from any script', async () => {
    const label = 'Équipe cafe\u0301 運用 ops-2 🔑';
    const { id } = await createKey('--name', label);
    expect((await listed()).find((key) => key.id === id)?.label).toBe(label);
  });

  it('rotate keeps the expiry of a key that expires, unless --expires names another', async () => {
    const [expiring, later] = await Promise.all([
      createKey('--name', 'expiring', '--expires', '2099-06-01T00:00:00Z'),
      createKey('--name', 'expiring-later', '--expires', '2099-06-01T00:00:00Z'),
    ]);
    const [inherited, given] = await Promise.all([
      keys('rotate', expiring.id, '--grace', '1h'),
      keys('rotate', later.id, '--expires', '2099-12-31T00:00:00Z'),
    ]);
    expect(inherited.code).toBe(0);
    expect(given.code).toBe(0);
    const rows = await listed();
    const successorOf = (id: string) => rows.find((r) => r.id === rows.find((o) => o.id === id)!.replacedBy)!;
    expect(successorOf(expiring.id)).toMatchObject({ label: 'expiring', expiresAt: '2099-06-01T00:00:00.000Z' });
    expect(successorOf(later.id)).toMatchObject({ label: 'expiring-later', expiresAt: '2099-12-31T00:00:00.000Z' });
  });

  // A DATA_DIR of its own, whatever the suite's database: this suite runs once, on the primary target.
  it('works on a DATA_DIR: opens a fresh one itself, and goes through the running service when it is busy', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-keys-'));
    try {
      const created = await run(process.execPath, [KEYS_CLI, 'create', '--name', 'embedded'], { DATA_DIR: dataDir });
      expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pet_[A-Za-z0-9_-]{43}\n$/) });

      const server = spawn(process.execPath, [EMBEDDED_SERVER, dataDir], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      try {
        await once(createInterface({ input: server.stdout }), 'line');
        const listedThere = await run(process.execPath, [KEYS_CLI, 'list', '--json'], { DATA_DIR: dataDir });
        expect(listedThere.code).toBe(0);
        expect(JSON.parse(listedThere.stdout)).toEqual([expect.objectContaining({ id: '1', label: 'embedded' })]);
      } finally {
        server.kill('SIGTERM');
        await once(server, 'exit');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses production without DATABASE_URL, as the service does, creating no embedded database', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'petstore-keys-'));
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: join(parent, 'data') };
      const result = await run(process.execPath, [KEYS_CLI, 'create', '--name', 'x'], env);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toMatch(/^DATABASE_URL is required in production[^\n]*\n$/);
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('the database holds no plain key: every table dumped as text', async () => {
    expect(issued.length).toBeGreaterThanOrEqual(6);
    await expectNoPlainKey(api, issued, 'expiring-later');
  });
});
