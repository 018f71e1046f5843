import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-key';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const README_BASE = 'http://127.0.0.1:3000';

jest.setTimeout(120_000);

/** The text of one `## ` section of the README. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no section "${title}"`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

interface TourStep {
  command: string;
  /** `http`: what `curl -i` prints (status line, the headers shown, body); `json`: one JSON value a line. */
  kind: 'http' | 'json';
  shown: string;
}

/** Each ```sh block of the tour and the block that shows its output. */
function tourSteps(): TourStep[] {
  const blocks = [...section('A short tour').matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1], text: match[2].trimEnd() }));
  const steps: TourStep[] = [];
  blocks.forEach((block, index) => {
    const next = blocks[index + 1];
    if (block.lang === 'sh' && next && (next.lang === 'http' || next.lang === 'json'))
      steps.push({ command: block.text, kind: next.lang, shown: next.text });
  });
  return steps;
}

function splitHttp(text: string): { status: string; headers: string[]; body: string } {
  const [head, ...rest] = text.replace(/\r\n/g, '\n').split('\n\n');
  const [status, ...headers] = head.split('\n');
  return { status, headers: headers.map((line) => line.toLowerCase()), body: rest.join('\n\n').trim() };
}

describe('README.md', () => {
  describe('the tour, run against the built service on a fresh database', () => {
    let service: ServiceProcess;
    let database: Awaited<ReturnType<typeof createServiceDatabase>>;
    beforeAll(async () => {
      database = await createServiceDatabase();
      // Started as the README says, `pnpm start`. The tour's cursor is signed with the built-in secret of development and test.
      service = await startServiceProcess({ ...database.env, NODE_ENV: 'test' }, { pnpmStart: true });
    });
    afterAll(async () => {
      await service?.stop();
      await database?.drop();
    });

    const steps = tourSteps();
    it('has the steps it promises: create, more creates, list, next page, get, an error', () => {
      expect(steps.map((step) => (step.kind === 'http' ? splitHttp(step.shown).status : 'json'))).toEqual([
        'HTTP/1.1 201 Created',
        'json',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 400 Bad Request',
      ]);
    });

    it.each(steps.map((step, index) => [index + 1, step]))('step %i answers what the README shows', async (_, step) => {
      const command = step.command.replaceAll(README_BASE, service.baseUrl);
      const { stdout } = await promisify(execFile)('sh', ['-c', command], { env: { PATH: process.env.PATH, KEY: TEST_API_KEY } });
      const { kind, shown } = step;
      if (kind === 'json') {
        expect(
          stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ).toEqual(shown.split('\n').map((line) => JSON.parse(line)));
        return;
      }
      const expected = splitHttp(shown);
      const actual = splitHttp(stdout);
      expect(actual.status).toBe(expected.status);
      expect(actual.headers).toEqual(expect.arrayContaining(expected.headers));
      expect(JSON.parse(actual.body)).toEqual(JSON.parse(expected.body));
    });

    it('stops at Ctrl-C (SIGINT to the whole job): exit 0, and pnpm reports no failed command', async () => {
      expect(await service.stop('SIGINT')).toBe(0);
      expect(service.stderr()).not.toContain('ELIFECYCLE');
    });
  });

  it('gives quick start commands that are scripts of package.json', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const blocks = [...section('Quick start').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('');
    const commands = [...blocks.matchAll(/^pnpm (\w[\w:]*)/gm)].map((match) => match[1]);
    expect(commands).toEqual(['start', 'test']);
    for (const command of commands) expect(scripts).toContain(command);
  });
});

/** The anchors GitHub gives the headings of a Markdown text (code blocks skipped). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = title
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('the links of README.md and docs/', () => {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  it.each(pages)('%s links to files that exist, and to headings they have', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(file)) broken.push(`${target}: no ${relative(ROOT, file)}`);
      else if (anchor && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
