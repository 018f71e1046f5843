import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { ROOT, run, type ToolRun } from '../support/processes';

/**
 * The breaking-change gate (`pnpm openapi:breaking`, tools/openapi/) measured against planted changes:
 * the changes are made to a copy of the released document, which is then compared with the original.
 * Loading Optic and each comparison cost seconds of CPU: most cases run the tools' main in this process,
 * where Optic loads once; a few spawned runs check what the process itself does (exit code, stdout, stderr).
 */
const RELEASED = join(ROOT, 'docs', 'openapi.released.json');
const CLI = join(ROOT, 'tools', 'openapi', 'breaking-cli.cjs');
const CHECK = join(ROOT, 'tools', 'openapi', 'changeset-check.cjs');
// The same two documents give the same findings: Optic compares each pair once, whichever case asks.
jest.mock('../../tools/openapi/breaking.cjs', () => {
  const actual = jest.requireActual('../../tools/openapi/breaking.cjs');
  const { readFileSync: read } = jest.requireActual('node:fs');
  const found = new Map<string, Promise<unknown>>();
  const compare = (base: string, head: string) => {
    const key = JSON.stringify([read(base, 'utf8'), read(head, 'utf8')]);
    if (!found.has(key)) found.set(key, actual.compare(base, head));
    return found.get(key);
  };
  return { ...actual, compare };
});
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'petstore-breaking-'))));
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

function plant(name: string, ...changes: ((document: any) => void)[]): string {
  const document = JSON.parse(readFileSync(RELEASED, 'utf8'));
  for (const change of changes) change(document);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

/** A tool's main run in this process, with its exit code and what it printed on stdout and stderr. */
async function inProcess(tool: string, args: string[]): Promise<ToolRun> {
  const { main } = await import(tool);
  let stdout = '';
  let stderr = '';
  const out = { log: (...what: unknown[]) => (stdout += `${format(...what)}\n`), error: (...what: unknown[]) => (stderr += `${format(...what)}\n`) };
  const code = await main(args, out);
  return { code, stdout, stderr };
}

/** The gate's arguments for a planted document, with an empty allow-list unless one is named: the project's own entries are not these changes'. */
const gateArgs = (head: string, more: string[]) => [
  '--base',
  RELEASED,
  '--head',
  head,
  ...(more.includes('--allow') ? more : [...more, '--allow', noAllowList()]),
];
const gate = (head: string, ...more: string[]) => inProcess(CLI, gateArgs(head, more));
const spawnedGate = (head: string, ...more: string[]) => run(process.execPath, [CLI, ...gateArgs(head, more)], {});
const noAllowList = () => {
  const file = join(dir, 'no-allowed-breaks.json');
  writeFileSync(file, '[]');
  return file;
};

const query = (document: any, name: string) => document.paths['/pets'].get.parameters.find((p: any) => p.name === name);

const BREAKS: [string, (document: any) => void, RegExp][] = [
  ['a removed operation', (d) => delete d.paths['/store/orders'], /GET \/store\/orders.*\[prevent operation removal\]/],
  ['a removed response property', (d) => delete d.components.schemas.Pet.properties.categoryId, /cannot remove response property 'categoryId'/],
  [
    'a renamed response property',
    (d) => {
      const pet = d.components.schemas.Pet;
      pet.properties.petName = pet.properties.name;
      delete pet.properties.name;
      pet.required = pet.required.map((p: string) => (p === 'name' ? 'petName' : p));
    },
    /cannot remove response property 'name'/,
  ],
  ['limit max 100 → 50', (d) => (query(d, 'limit').schema.maximum = 50), /query parameter 'limit' accepts fewer values \(maximum 100 → 50\)/],
  [
    'a pattern on a request property',
    (d) => (d.components.schemas.NewPet.properties.name.pattern = '^[a-z]+$'),
    /request property 'name' accepts fewer values/,
  ],
  ['a query parameter that becomes required', (d) => (query(d, 'status').required = true), /cannot make optional query parameter 'status' required/],
  [
    'a request property that becomes required',
    (d) => d.components.schemas.NewPet.required.push('status'),
    /POST \/pets request body: application\/json property: status: cannot make a request property required/,
  ],
  [
    'a value removed from a request enum',
    (d) => (d.components.schemas.PetStatus.enum = ['available', 'pending']),
    /cannot remove enum option 'sold'/,
  ],
  ['a changed type', (d) => (d.components.schemas.NewPet.properties.categoryId.type = 'string'), /'categoryId' not to be narrowed/],
];

const ADDITIONS: [string, (document: any) => void][] = [
  // info.version is the contract's own version (1.0.0), not the packages' (1.1.0): changing it alone breaks nothing.
  ['a version-only change', (d) => (d.info.version = '1.0.0')],
  [
    'an added optional query parameter',
    (d) => d.paths['/pets'].get.parameters.push({ name: 'sort', in: 'query', required: false, schema: { type: 'string' } }),
  ],
  ['an added response property', (d) => (d.components.schemas.Pet.properties.born = { type: 'string', format: 'date' })],
  ['a wider range', (d) => (query(d, 'limit').schema.maximum = 200)],
];

describe('pnpm openapi:breaking (Optic with tools/openapi/optic.yml)', () => {
  jest.setTimeout(300_000);
  // Each comparison costs seconds of CPU: the breaks are planted in one document, every one to be named,
  // compared by a spawned gate (its exit code and streams); the additions in another.
  let breaks: Promise<ToolRun>;
  beforeAll(() => {
    breaks = spawnedGate(plant('breaks', ...BREAKS.map(([, change]) => change)));
  });

  it.each(BREAKS)('fails on %s, naming it', async (_name, _change, expected) => {
    const result = await breaks;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: '' });
    expect(result.stdout).toMatch(expected);
    expect(result.stdout).toMatch(/^BREAKING: /m);
  });

  it.each([
    ['no change', () => gate(plant('unchanged', () => undefined))],
    [`${ADDITIONS.map(([name]) => name).join(', ')}`, () => gate(plant('additions', ...ADDITIONS.map(([, change]) => change)))],
  ])('passes %s', async (_name, result) => {
    const { code, stdout, stderr } = await result();
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: expect.stringMatching(/^openapi:breaking: no breaking change/m), stderr: '' });
  });

  it('lets an intentional break through the allow-list, with its reason; refuses an entry without one or left unused', async () => {
    const narrowed = plant('allowed', (d) => (query(d, 'limit').schema.maximum = 50));
    const entry = { rule: 'prevent narrowing query parameter ranges', where: 'GET /pets query parameter: limit' };
    const allow = (name: string, entries: unknown[]) => {
      writeFileSync(join(dir, name), JSON.stringify(entries));
      return join(dir, name);
    };
    const allowed = await gate(narrowed, '--allow', allow('ok.json', [{ ...entry, reason: 'Pages of 100 time out' }]));
    expect(allowed).toMatchObject({ code: 0, stdout: expect.stringMatching(/^allowed: GET \/pets query parameter: limit/m) });
    // Refused before any comparison, by a spawned gate: exit 2, the reason on stderr.
    const noReason = await spawnedGate(narrowed, '--allow', allow('no-reason.json', [{ ...entry, reason: ' ' }]));
    expect(noReason).toMatchObject({ code: 2, stderr: expect.stringMatching(/every entry needs "rule", "where" and a "reason"/) });
    const unused = await gate(
      plant('unchanged', () => undefined),
      '--allow',
      allow('unused.json', [{ ...entry, reason: 'x' }]),
    );
    expect(unused).toMatchObject({ code: 1, stdout: expect.stringMatching(/^unused allow-list entry/m) });
  });
});

describe('pnpm openapi:changeset: a changed document needs a changeset at the right level', () => {
  jest.setTimeout(300_000);
  /** A .changeset folder holding one changeset that bumps the contracts at `level` (none when undefined). */
  const changesets = (level?: string) => {
    const folder = join(dir, `changesets-${level ?? 'none'}`);
    mkdirSync(folder, { recursive: true });
    if (level) writeFileSync(join(folder, 'change.md'), `---\n'@petstore/contracts': ${level}\n'@petstore/client': ${level}\n---\n\nA change.\n`);
    return folder;
  };
  let allowNarrowing: string;
  beforeAll(() => {
    allowNarrowing = join(dir, 'allow-narrowing.json');
    writeFileSync(
      allowNarrowing,
      JSON.stringify([{ rule: 'prevent narrowing query parameter ranges', where: 'GET /pets query parameter: limit', reason: 'A test' }]),
    );
  });
  const checkArgs = (head: string, level?: string) => ['--head', head, '--changesets', changesets(level), '--allow', allowNarrowing];

  const addBorn = (d: any): void => {
    d.components.schemas.Pet.properties.born = { type: 'string' };
  };
  const narrowLimit = (d: any): void => {
    query(d, 'limit').schema.maximum = 50;
  };
  const CASES: [string, (d: any) => void, string | undefined, number, RegExp][] = [
    ['the released document, without a changeset', () => undefined, undefined, 0, /no changeset needed/],
    ['an addition, without a changeset', addBorn, undefined, 1, /needs a minor bump.*no pending changeset/],
    ['an addition, with a patch changeset', addBorn, 'patch', 1, /needs a minor bump.*bump it patch only/],
    ['an addition, with a minor changeset', addBorn, 'minor', 0, /changed \(minor\)/],
    ['an allowed break, with a minor changeset', narrowLimit, 'minor', 1, /needs a major bump/],
    ['an allowed break, with a major changeset', narrowLimit, 'major', 0, /changed \(major\)/],
  ];

  // Spawned: one run with exit 0 and one with exit 1; the rest run in this process.
  const SPAWNED = ['the released document, without a changeset', 'an addition, without a changeset'];
  it.each(CASES)('%s', async (name, change, level, code, expected) => {
    const args = checkArgs(plant(`changeset ${name}`, change), level);
    const result = SPAWNED.includes(name) ? await run(process.execPath, [CHECK, ...args], {}) : await inProcess(CHECK, args);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: expect.stringMatching(expected) });
  });
});
