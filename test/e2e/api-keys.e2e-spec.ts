import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EMBEDDED_SERVER, KEYS_CLI, ToolRun, run } from '../support/processes';
import { AUTH, countPets, startTestApp, useTestApp } from '../support/test-app';

// Real processes and databases on a shared 2-core machine: starting them may take a while under load.
jest.setTimeout(120_000);

const KEY_FORMAT = /^pet_[A-Za-z0-9_-]{43}$/;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('API keys (e2e)', () => {
  const api = useTestApp();
  /** Every key the tool printed: none may ever be found in the database. */
  const issued: string[] = [];

  const keys = async (...args: string[]): Promise<ToolRun> => {
    const result = await run(process.execPath, [KEYS_CLI, ...args], { DATABASE_URL: api.database.url });
    if (KEY_FORMAT.test(result.stdout.trim())) issued.push(result.stdout.trim());
    return result;
  };
  const createKey = async (...args: string[]): Promise<{ id: string; key: string }> => {
    const result = await keys('create', ...args);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pet_[A-Za-z0-9_-]{43}\n$/) });
    return { id: /Created API key (\d+)/.exec(result.stderr)![1], key: result.stdout.trim() };
  };
  const listed = async () => JSON.parse((await keys('list', '--json')).stdout) as Record<string, unknown>[];

  it('create prints the key alone on stdout, through the root script too; the key works at once', async () => {
    const viaScript = await run('pnpm', ['-s', 'keys', 'create', '--name', 'ci'], { DATABASE_URL: api.database.url });
    expect(viaScript.code).toBe(0);
    expect(viaScript.stdout).toMatch(/^pet_[A-Za-z0-9_-]{43}\n$/);
    expect(viaScript.stderr).toMatch(/^Created API key \d+ "ci" \(pets:read, pets:write, orders:read\)/);
    issued.push(viaScript.stdout.trim());

    const response = await api.request('GET', '/v1/pets', { headers: bearer(viaScript.stdout.trim()) });
    expect(response.status).toBe(200);
    const lowerScheme = await api.request('GET', '/v1/pets', { headers: { authorization: `bEaReR ${viaScript.stdout.trim()}` } });
    expect(lowerScheme.status).toBe(200);
  });

  it('list shows id, label, scopes, dates and never a key or its digest', async () => {
    const { id } = await createKey('--name', 'reader', '--scopes', 'pets:read', '--expires', '2030-01-01T00:00:00Z');
    const rows = await listed();
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
    const table = await keys('list');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID\s+LABEL\s+SCOPES\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED\s+REPLACED BY\s+LAST DEPRECATED CALL$/,
    );
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+reader\\s+pets:read\\s+\\S+\\s+-\\s+2030-01-01T00:00:00Z\\s+-\\s+-\\s+-$`, 'm'));
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
    for (const [args, message] of cases) {
      const result = await keys(...args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: expect.any(Number), stdout: '' });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    }
  });

  it('answers bad usage with one line and exit 2: unknown options, impossible dates, unprintable labels', async () => {
    const cases: [string[], string][] = [
      [['rotate', '1', '--grace', '-1s'], "Option '--grace' argument is ambiguous."],
      [['list', '--frobnicate'], "Unknown option '--frobnicate'."],
      [['create', '--name', 'x', '--expires', '2099-02-31'], '--expires names a day that does not exist (got "2099-02-31")'],
      [['create', '--name', 'evil\u202Eyek'], '--name may hold visible characters and plain spaces only (U+202E is not one)'],
      [['create', '--name', 'bell\u0007'], '--name may hold visible characters and plain spaces only (U+0007 is not one)'],
      [['create'], '--name <label> is required: 1 to 100 characters'],
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
    for (const [args, message] of cases) {
      const result = await keys(...args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toBe(`${message} (see: keys --help)\n`);
    }
    expect(
      await api.sql
        .query('SELECT label FROM api_keys WHERE label NOT IN ($1)', ['development key'])
        .then((r) => r.rows.filter((row) => /evil|bell|o.?ps|^x$/.test(row.label))),
    ).toEqual([]);
  });

  it('takes a label of letters, marks on them, digits, symbols and spaces from any script', async () => {
    const label = 'Équipe cafe\u0301 運用 ops-2 🔑';
    const { id } = await createKey('--name', label);
    expect((await listed()).find((key) => key.id === id)?.label).toBe(label);
  });

  it('enforces scopes per operation: 403 forbidden with the Error body, after authentication', async () => {
    const reader = await createKey('--name', 'reader', '--scopes', 'pets:read');
    const orders = await createKey('--name', 'orders', '--scopes', 'orders:read');
    const writer = await createKey('--name', 'writer', '--scopes', 'pets:write');
    const forbidden = (scope: string) => ({
      code: 'forbidden',
      message: `This API key lacks the ${scope} scope that this operation needs`,
      status: 403,
    });

    expect((await api.request('GET', '/v1/pets', { headers: bearer(reader.key) })).status).toBe(200);
    const post = await api.request('POST', '/v1/pets', { headers: bearer(reader.key), body: { name: 'Rex', categoryId: 1 } });
    expect(post.status).toBe(403);
    expect(post.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(post.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="pets:write"');
    expect(post.body).toEqual(forbidden('pets:write'));
    // The scope is checked before the body: a bad body from a read-only key is 403, not 400.
    expect((await api.request('POST', '/v1/pets', { headers: bearer(reader.key), body: '{bad' })).body).toEqual(forbidden('pets:write'));
    expect((await api.request('GET', '/v1/store/orders', { headers: bearer(reader.key) })).body).toEqual(forbidden('orders:read'));
    expect(await countPets(api)).toBe(0);

    expect((await api.request('GET', '/v1/store/orders', { headers: bearer(orders.key) })).status).toBe(501);
    expect((await api.request('GET', '/v1/pets', { headers: bearer(orders.key) })).body).toEqual(forbidden('pets:read'));
    expect((await api.request('GET', '/v1/pets/1', { headers: bearer(orders.key) })).body).toEqual(forbidden('pets:read'));

    const created = await api.request('POST', '/v1/pets', { headers: bearer(writer.key), body: { name: 'Rex', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect((await api.request('GET', `/v1/pets/${created.body.id}`, { headers: bearer(writer.key) })).body).toEqual(forbidden('pets:read'));
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');

    // An unknown key with no scope is still 401: authentication comes first.
    const unknown = await api.request('POST', '/v1/pets', { headers: bearer(`pet_${'A'.repeat(43)}`), body: '{bad' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('shows the scope each operation needs in the OpenAPI document', async () => {
    const document = (await api.request('GET', '/docs/openapi.json')).body;
    const operations = [
      ['/pets', 'get', 'pets:read'],
      ['/pets', 'post', 'pets:write'],
      ['/pets/{petId}', 'get', 'pets:read'],
      ['/store/orders', 'get', 'orders:read'],
    ];
    for (const [path, method, scope] of operations) {
      const operation = document.paths[path][method];
      expect(operation['x-required-scopes']).toEqual([scope]);
      expect(operation.responses['403'].description).toContain(`\`${scope}\``);
    }
  });

  it('refuses a key once it expires, without waiting for the cache', async () => {
    const { id, key } = await createKey('--name', 'short-lived');
    await api.sql.query(`UPDATE api_keys SET expires_at = now() + interval '1500 milliseconds' WHERE id = $1`, [id]);
    expect((await api.request('GET', '/v1/pets', { headers: bearer(key) })).status).toBe(200);
    await sleep(1700);
    const refused = await api.request('GET', '/v1/pets', { headers: bearer(key) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token expired"');
    expect(refused.body).toEqual({ code: 'unauthorized', message: 'The API key expired: send a current key', status: 401 });
  });

  it('says why a known key is refused (RFC 6750 error_description), and nothing more for an unknown one', async () => {
    const revoked = await createKey('--name', 'revoked');
    const rotated = await createKey('--name', 'rotated');
    for (const { key } of [revoked, rotated]) expect((await api.request('GET', '/v1/pets', { headers: bearer(key) })).status).toBe(200);
    expect((await keys('revoke', revoked.id)).code).toBe(0);
    // Rotated without a grace period: the old key expires at once.
    const rotation = await keys('rotate', rotated.id);
    expect(rotation.code).toBe(0);

    const refusal = async (key: string) => {
      // Within the 5 s rule the service hears of the change.
      let response = await api.request('GET', '/v1/pets', { headers: bearer(key) });
      for (const started = Date.now(); response.status === 200 && Date.now() - started < 6000; await sleep(100)) {
        response = await api.request('GET', '/v1/pets', { headers: bearer(key) });
      }
      return { status: response.status, challenge: response.headers.get('www-authenticate'), body: response.body };
    };
    expect(await refusal(revoked.key)).toEqual({
      status: 401,
      challenge: 'Bearer error="invalid_token", error_description="The access token was revoked"',
      body: { code: 'unauthorized', message: 'The API key was revoked: send a current key', status: 401 },
    });
    expect(await refusal(rotated.key)).toEqual({
      status: 401,
      challenge: 'Bearer error="invalid_token", error_description="The access token expired"',
      body: { code: 'unauthorized', message: 'The API key expired: send a current key', status: 401 },
    });
    const generic = {
      status: 401,
      challenge: 'Bearer error="invalid_token"',
      body: { code: 'unauthorized', message: 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key', status: 401 },
    };
    // An unknown key of the right shape, and a key of another shape, learn nothing.
    expect(await refusal(`pet_${'B'.repeat(43)}`)).toEqual(generic);
    expect(await refusal('not-a-petstore-key-0123456789')).toEqual(generic);
  });

  it('rotate issues a successor with the same label and scopes; the old key lives through the grace period', async () => {
    const old = await createKey('--name', 'deploy', '--scopes', 'pets:read,pets:write');
    expect((await api.request('GET', '/v1/pets', { headers: bearer(old.key) })).status).toBe(200);

    const rotated = await keys('rotate', old.id, '--grace', '1h');
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^pet_[A-Za-z0-9_-]{43}\n$/);
    const successorKey = rotated.stdout.trim();
    const rows = await listed();
    const oldRow = rows.find((r) => r.id === old.id)!;
    const successor = rows.find((r) => r.id === oldRow.replacedBy)!;
    expect(successor).toMatchObject({ label: 'deploy', scopes: ['pets:read', 'pets:write'], expiresAt: null, revokedAt: null });
    const graceLeft = Date.parse(oldRow.expiresAt as string) - Date.now();
    expect(graceLeft).toBeGreaterThan(50 * 60_000);
    expect(graceLeft).toBeLessThanOrEqual(60 * 60_000);
    expect((await api.request('GET', '/v1/pets', { headers: bearer(old.key) })).status).toBe(200);
    expect((await api.request('GET', '/v1/pets', { headers: bearer(successorKey) })).status).toBe(200);

    const again = await keys('rotate', old.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`API key ${old.id} was already rotated; its successor is ${successor.id}`);

    // Without a grace period the old key is refused at once (within the 5 s rule).
    const second = await keys('rotate', successor.id as string);
    expect(second.code).toBe(0);
    issued.push(second.stdout.trim());
    expect((await api.request('GET', '/v1/pets', { headers: bearer(second.stdout.trim()) })).status).toBe(200);
    const started = Date.now();
    while ((await api.request('GET', '/v1/pets', { headers: bearer(successorKey) })).status === 200) {
      expect(Date.now() - started).toBeLessThan(5000);
      await sleep(100);
    }
  });

  it('rotate keeps the expiry of a key that expires, unless --expires names another', async () => {
    const expiring = await createKey('--name', 'expiring', '--expires', '2099-06-01T00:00:00Z');
    const inherited = await keys('rotate', expiring.id, '--grace', '1h');
    expect(inherited.code).toBe(0);
    const later = await createKey('--name', 'expiring-later', '--expires', '2099-06-01T00:00:00Z');
    const given = await keys('rotate', later.id, '--expires', '2099-12-31T00:00:00Z');
    expect(given.code).toBe(0);
    const rows = await listed();
    const successorOf = (id: string) => rows.find((r) => r.id === rows.find((o) => o.id === id)!.replacedBy)!;
    expect(successorOf(expiring.id)).toMatchObject({ label: 'expiring', expiresAt: '2099-06-01T00:00:00.000Z' });
    expect(successorOf(later.id)).toMatchObject({ label: 'expiring-later', expiresAt: '2099-12-31T00:00:00.000Z' });
  });

  it('records "last used" in batches and shows it in the list', async () => {
    const { id, key } = await createKey('--name', 'used');
    for (let i = 0; i < 3; i++) expect((await api.request('GET', '/v1/pets', { headers: bearer(key) })).status).toBe(200);
    const startedAt = Date.now();
    let lastUsed: Date | null = null;
    while (!lastUsed && Date.now() - startedAt < 15_000) {
      await sleep(250);
      lastUsed = (await api.sql.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id])).rows[0].last_used_at;
    }
    expect(lastUsed).toBeInstanceOf(Date);
    expect(Math.abs(lastUsed!.getTime() - startedAt)).toBeLessThan(20_000);
    expect((await listed()).find((r) => r.id === id)!.lastUsedAt).toBe(lastUsed!.toISOString());
  });

  it('a key revoked with the tool is refused by every running instance within 5 seconds', async () => {
    const second = await startTestApp({}, api.database);
    try {
      const { id, key } = await createKey('--name', 'to-revoke');
      for (const instance of [api, second]) expect((await instance.request('GET', '/v1/pets', { headers: bearer(key) })).status).toBe(200);

      const revoked = await keys('revoke', id);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toBe('');
      const revokedAt: Date = (await api.sql.query('SELECT revoked_at FROM api_keys WHERE id = $1', [id])).rows[0].revoked_at;
      const refusedAfter: number[] = [];
      for (const instance of [api, second]) {
        let response = await instance.request('GET', '/v1/pets', { headers: bearer(key) });
        while (response.status === 200 && Date.now() - revokedAt.getTime() < 6000) {
          await sleep(50);
          response = await instance.request('GET', '/v1/pets', { headers: bearer(key) });
        }
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token was revoked"');
        refusedAfter.push(Date.now() - revokedAt.getTime());
      }
      const delay = Math.max(...refusedAfter);
      console.log(`revocation delay (3 s key cache): ${delay} ms after revoked_at`);
      expect(delay).toBeLessThanOrEqual(5000);
      const again = await keys('revoke', id);
      expect(again.code).toBe(0);
    } finally {
      await second.close();
    }
  });

  // Independent of the suite's database, so it runs once: in the embedded pass.
  (process.env.DATABASE_URL ? it.skip : it)(
    'works on a DATA_DIR: opens a fresh one itself, and goes through the running service when it is busy',
    async () => {
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
    },
  );

  it('the database holds no plain key: every table dumped as text', async () => {
    expect(issued.length).toBeGreaterThanOrEqual(8);
    const tables = await api.sql.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.map((t) => t.name)).toContain('public.api_keys');
    let dump = '';
    for (const { name } of tables.rows) {
      const rows = await api.sql.query(`SELECT t::text AS row FROM ${name} t`);
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain('deploy');
    for (const key of [...issued, AUTH.authorization.slice('Bearer '.length)]) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(4));
    }
  });
});
