import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/processes';

/**
 * The Node.js lines the project supports are the `engines` of the root package.json; CI runs the tests
 * on several of them (PETSTORE_NODE_MAJOR names the one a run is for). The services the suites start
 * run on process.execPath, and scripts on the `node` of PATH: both must be the node under test.
 */
const engines: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node;
const versionOf = (command: string) => execFileSync(command, ['-p', 'process.version'], { encoding: 'utf8' }).trim();

/** `^A.B.C || ^D.E.F …`: the only range form `engines` uses. */
function satisfies(version: string, range: string): boolean {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number);
  return range.split('||').some((part) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`engines.node uses a form this check does not read: "${part.trim()}"`);
    const [, m, n, p] = match.map(Number);
    return major === m && (minor > n || (minor === n && patch >= p));
  });
}

describe('Node.js runtime', () => {
  it('runs the tests on a line that engines lists', () => {
    expect(satisfies('20.19.0', engines) && !satisfies('20.18.9', engines) && !satisfies('23.0.0', engines)).toBe(true);
    expect({ node: process.version, supported: satisfies(process.version, engines) }).toEqual({ node: process.version, supported: true });
  });

  it('starts child processes (services, the key tool, scripts) on the node under test', () => {
    const expected = process.env.PETSTORE_NODE_MAJOR;
    if (expected) expect(process.version).toMatch(new RegExp(`^v${expected}\\.`));
    expect(versionOf(process.execPath)).toBe(process.version);
    expect(versionOf('node')).toBe(process.version);
  });
});
