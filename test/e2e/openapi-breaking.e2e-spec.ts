import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from '../support/processes';

/**
 * The breaking-change gate (`pnpm openapi:breaking`, tools/openapi/) measured against planted changes:
 * the changes are made to a copy of the released document, which is then compared with the original.
 */
const RELEASED = join(ROOT, 'docs', 'openapi.released.json');
const CLI = join(ROOT, 'tools', 'openapi', 'breaking-cli.cjs');
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

/** The gate on a planted document, with an empty allow-list unless one is named: the project's own entries are not these changes'. */
const gate = (head: string, ...more: string[]) =>
  run(process.execPath, [CLI, '--base', RELEASED, '--head', head, ...(more.includes('--allow') ? more : [...more, '--allow', noAllowList()])], {});
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
  // Each run costs seconds of CPU (Optic's load and its checks): the breaks are planted in one document,
  // every one to be named; the additions in another; and both compared with the released one at once.
  let breaks: Promise<Awaited<ReturnType<typeof gate>>>;
  let additions: Promise<Awaited<ReturnType<typeof gate>>>;
  let unchanged: Promise<Awaited<ReturnType<typeof gate>>>;
  beforeAll(() => {
    breaks = gate(plant('breaks', ...BREAKS.map(([, change]) => change)));
    additions = gate(plant('additions', ...ADDITIONS.map(([, change]) => change)));
    unchanged = gate(plant('unchanged', () => undefined));
  });

  it.each(BREAKS)('fails on %s, naming it', async (_name, _change, expected) => {
    const result = await breaks;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: '' });
    expect(result.stdout).toMatch(expected);
    expect(result.stdout).toMatch(/^BREAKING: /m);
  });

  it.each([
    ['no change', () => unchanged],
    [`${ADDITIONS.map(([name]) => name).join(', ')}`, () => additions],
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
    const noReason = await gate(narrowed, '--allow', allow('no-reason.json', [{ ...entry, reason: ' ' }]));
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
  const CHECK = join(ROOT, 'tools', 'openapi', 'changeset-check.cjs');
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
  const check = (head: string, level?: string, allow = join(ROOT, 'docs', 'openapi.allowed-breaks.json')) =>
    run(process.execPath, [CHECK, '--head', head, '--changesets', changesets(level), '--allow', allow], {});

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

  // Started together, as the gate's runs above.
  const results = new Map<string, ReturnType<typeof check>>();
  beforeAll(() => {
    for (const [name, change, level] of CASES) results.set(name, check(plant(`changeset ${name}`, change), level, allowNarrowing));
  });

  it.each(CASES)('%s', async (name, _change, _level, code, expected) => {
    const result = await results.get(name)!;
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: expect.stringMatching(expected) });
  });
});
