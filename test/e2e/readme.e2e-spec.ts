import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';

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
      // The tour's cursor is signed with the built-in secret of development and test.
      service = await startServiceProcess({ ...database.env, NODE_ENV: 'test' });
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
  });
});
