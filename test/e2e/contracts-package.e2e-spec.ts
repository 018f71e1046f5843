import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs a command; on failure the error carries what it printed (tsc reports on stdout). */
function run(command: string, args: string[], cwd: string, timeout = 120000): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** A consumer's program: type-checked against the package's declarations, then run. */
const CONSUMER = `
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ApiError, ErrorCode, NewPet, Pet, PetStatus } from '@petstore/contracts';

const good: NewPet = { name: 'Rex', categoryId: 3, status: PetStatus.Pending };
// @ts-expect-error categoryId is required
const missing: NewPet = { name: 'Rex' };
const pet: Pet = { id: 1, ...good, status: PetStatus.Available };
const error: ApiError = { code: ErrorCode.NotFound, message: 'no such pet', status: 404 };

const problems = (input: object) =>
  validateSync(plainToInstance(NewPet, input)).map((failure) => failure.property);
console.log(JSON.stringify({
  good: problems(good),
  bad: problems({ name: '', categoryId: '3', status: 'lost' }),
  pet: pet.id,
  error: error.code,
  missing: missing.name,
}));
`;

describe('@petstore/contracts as a packed tarball, in a project outside the workspace', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with npm, type-checks its imports and validates with class-validator', () => {
    run('pnpm', ['pack', '--pack-destination', scratch], join(ROOT, 'libs', 'contracts'));
    const tarball = readdirSync(scratch).find((file) => file.endsWith('.tgz'));
    expect(tarball).toBe('petstore-contracts-1.0.0.tgz');

    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, experimentalDecorators: true, outDir: 'dist', types: [] },
        include: ['main.ts'],
      }),
    );
    writeFileSync(join(scratch, 'main.ts'), CONSUMER);
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], scratch, 240000);

    const installed = JSON.parse(readFileSync(join(scratch, 'node_modules', '@petstore', 'contracts', 'package.json'), 'utf8'));
    expect(installed.version).toBe('1.0.0');
    expect(JSON.stringify(installed)).not.toContain('workspace:');
    expect(readdirSync(join(scratch, 'node_modules', '@petstore', 'contracts')).sort()).toEqual(['CHANGELOG.md', 'README.md', 'dist', 'package.json']);
    expect(existsSync(join(scratch, 'node_modules', '@nestjs'))).toBe(false);

    run(process.execPath, [TSC, '-p', scratch], scratch);
    const output = run(process.execPath, [join(scratch, 'dist', 'main.js')], scratch);
    expect(JSON.parse(output)).toEqual({ good: [], bad: ['name', 'categoryId', 'status'], pet: 1, error: 'not_found', missing: 'Rex' });
  }, 300000);
});
