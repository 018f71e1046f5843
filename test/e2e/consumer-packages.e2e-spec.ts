import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTRACTS_VERSION, PET_STATUSES } from '@petstore/contracts';
import { CJS, CONSUMER, ESM, PAGINATE_CJS, PAGINATE_ESM, documentedExample } from '../support/consumer-programs';
import { ContractChecker, OpenApiDocument } from '../support/contract';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-key';
import { runOrThrow as run } from '../support/processes';

const ROOT = join(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const OPENAPI_TYPESCRIPT = join(ROOT, 'libs', 'client', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const DOC_BASE = 'http://127.0.0.1:3000/v1';

describe('@petstore/contracts and @petstore/client as packed tarballs, in a project outside the workspace', () => {
  let scratch: string;
  let service: ServiceProcess;
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
    database = await createServiceDatabase();
    service = await startServiceProcess(database.env);
  }, 120000);
  /** Runs a built consumer file against the service; its output, trimmed. */
  const node = (file: string) =>
    run(process.execPath, [join(scratch, file)], scratch, { timeout: 30000, env: { BASE: `${service.baseUrl}/v1`, KEY: TEST_API_KEY } }).trim();
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with npm, type-checks its imports and validates with class-validator', () => {
    run('pnpm', ['--filter', '@petstore/contracts', '--filter', '@petstore/client', 'pack', '--pack-destination', scratch], ROOT);
    const tarballs = readdirSync(scratch)
      .filter((file) => file.endsWith('.tgz'))
      .sort();
    expect(tarballs).toEqual([`petstore-client-${CONTRACTS_VERSION}.tgz`, `petstore-contracts-${CONTRACTS_VERSION}.tgz`]);

    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }));
    // Strict nodenext (exact optional properties too) with the libraries' declarations checked too, and no decorator options: the contracts need none.
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          exactOptionalPropertyTypes: true,
          outDir: 'dist',
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        include: ['*.ts', '*.mts', '*.cts'],
      }),
    );
    writeFileSync(join(scratch, 'main.ts'), CONSUMER);
    writeFileSync(join(scratch, 'esm.mts'), ESM);
    writeFileSync(join(scratch, 'cjs.cts'), CJS);
    writeFileSync(join(scratch, 'paginate-esm.mts'), PAGINATE_ESM);
    writeFileSync(join(scratch, 'paginate-cjs.cts'), PAGINATE_CJS);
    writeFileSync(join(scratch, 'readme-esm.mts'), documentedExample('**ES modules**').replace(`'${DOC_BASE}'`, 'process.env.BASE!'));
    // Plain JavaScript, as docs/contract.md shows it: run as is, not compiled.
    writeFileSync(join(scratch, 'readme-cjs.cjs'), documentedExample('**CommonJS**').replace(`'${DOC_BASE}'`, 'process.env.BASE'));
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs.map((file) => `./${file}`)], scratch, {
      timeout: 240000,
    });

    const installed = JSON.parse(readFileSync(join(scratch, 'node_modules', '@petstore', 'contracts', 'package.json'), 'utf8'));
    expect(installed.version).toBe(CONTRACTS_VERSION);
    expect(JSON.stringify(installed)).not.toContain('workspace:');
    expect(readdirSync(join(scratch, 'node_modules', '@petstore', 'contracts')).sort()).toEqual([
      'CHANGELOG.md',
      'README.md',
      'dist',
      'package.json',
    ]);
    expect(existsSync(join(scratch, 'node_modules', '@nestjs'))).toBe(false);

    run(process.execPath, [TSC, '-p', scratch], scratch);
    const output = run(process.execPath, [join(scratch, 'dist', 'main.js')], scratch);
    expect(JSON.parse(output)).toEqual({ good: [], bad: ['name', 'categoryId', 'status'], pet: 1, error: 'not_found', missing: 'Rex' });
  }, 300000);

  it('runs an ES module and a CommonJS file, and the documented examples, against the service', () => {
    expect(JSON.parse(node('dist/esm.mjs'))).toEqual({ created: 'Esm', unauthorized: 401 });
    expect(JSON.parse(node('dist/cjs.cjs'))).toEqual({ names: ['Esm'], code: 'not_found' });
    expect(node('dist/readme-esm.mjs')).toMatch(/^[0-9]+$/);
    expect(node('readme-cjs.cjs')).toContain("name: 'Rex'");
  }, 60000);

  it('walks every page of a 250-pet store with paginate(), keeping the filters, as ESM and as CommonJS', async () => {
    const checker = new ContractChecker((await (await fetch(`${service.baseUrl}/docs/openapi.json`)).json()) as OpenApiDocument);
    // The examples above added two pets (Esm, sold; Rex, available): 248 more, statuses in turn, make 250.
    for (let n = 0; n < 248; n++) {
      const body = { name: `pet ${n}`, categoryId: 1, status: PET_STATUSES[n % 3] };
      const response = await fetch(`${service.baseUrl}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      expect(
        checker.problem('POST', response.url, response.status, response.headers.get('content-type'), JSON.parse(text), text, response.headers),
      ).toBeUndefined();
      expect(response.status).toBe(201);
    }
    const walked = (sizes: number[], statuses: string[]) => ({ sizes, distinct: sizes.reduce((a, b) => a + b), ascending: true, statuses });
    const all = walked([100, 100, 50], ['available', 'pending', 'sold']);
    expect(JSON.parse(node('dist/paginate-esm.mjs'))).toEqual([all, walked([30, 30, 23], ['pending']), 'validation_failed']);
    expect(JSON.parse(node('dist/paginate-cjs.cjs'))).toEqual({
      walks: [walked([45, 45, 45, 45, 45, 25], all.statuses), walked([20, 20, 20, 20, 3], ['sold'])],
      loaded: [],
    });
  }, 120000);

  it('generates types with openapi-typescript --default-non-nullable false, where { name, categoryId } is a NewPet', () => {
    const check = `import type { components } from './petstore';\nconst pet: components['schemas']['NewPet'] = { name: 'Rex', categoryId: 1 };\nexport default pet;\n`;
    const typesProject = (dir: string) => {
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true, noEmit: true, types: [] }, include: ['*.ts'] }),
      );
      writeFileSync(join(dir, 'check.ts'), check);
    };
    const spec = join(ROOT, 'docs', 'openapi.json');
    const withFlag = mkdtempSync(join(scratch, 'types-'));
    run(process.execPath, [OPENAPI_TYPESCRIPT, spec, '--default-non-nullable', 'false', '--output', join(withFlag, 'petstore.ts')], withFlag);
    typesProject(withFlag);
    run(process.execPath, [TSC, '-p', withFlag], withFlag);
    // Why the flag: without it, a property with a default (status) becomes required.
    const withoutFlag = mkdtempSync(join(scratch, 'types-'));
    run(process.execPath, [OPENAPI_TYPESCRIPT, spec, '--output', join(withoutFlag, 'petstore.ts')], withoutFlag);
    typesProject(withoutFlag);
    expect(() => run(process.execPath, [TSC, '-p', withoutFlag], withoutFlag)).toThrow(/Property 'status' is missing/);
  }, 120000);
});
