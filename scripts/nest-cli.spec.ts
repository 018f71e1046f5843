import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * nest-cli.json describes the workspace to the Nest CLI (`nest build api`, `nest start api`, the
 * generators): it stays true to the tree, and it builds what `pnpm build` builds (tsc -b of the root
 * tsconfig.build.json), from the same tsconfig files.
 */
const ROOT = join(__dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

interface Project {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
  compilerOptions: { tsConfigPath: string };
}
const cli = readJson<{ sourceRoot: string; entryFile: string; projects: Record<string, Project> }>('nest-cli.json');
const projects = Object.entries(cli.projects);

describe('nest-cli.json', () => {
  it.each(projects)('%s: its entry file and tsconfig exist', (_name, project) => {
    expect(existsSync(join(ROOT, project.sourceRoot, `${project.entryFile}.ts`))).toBe(true);
    expect(existsSync(join(ROOT, project.compilerOptions.tsConfigPath))).toBe(true);
  });

  it.each(projects)("%s: its entry is built to its package's main", (_name, project) => {
    const { main } = readJson<{ main: string }>(join(project.root, 'package.json'));
    const tsconfig = readJson<{ compilerOptions?: { outDir?: string } }>(join(project.root, 'tsconfig.json'));
    expect(join(project.root, tsconfig.compilerOptions?.outDir ?? '', `${project.entryFile}.js`)).toBe(join(project.root, main));
  });

  it('names the app as its default project', () => {
    expect({ sourceRoot: cli.sourceRoot, entryFile: cli.entryFile }).toEqual({
      sourceRoot: cli.projects.api.sourceRoot,
      entryFile: cli.projects.api.entryFile,
    });
  });

  it('has the projects that pnpm build builds, with the same tsconfig files', () => {
    const solution = readJson<{ references: { path: string }[] }>('tsconfig.build.json');
    const built = solution.references.map(({ path }) => (path.endsWith('.json') ? path : `${path}/tsconfig.json`));
    expect(projects.map(([, project]) => project.compilerOptions.tsConfigPath).sort()).toEqual(built.sort());
  });
});
