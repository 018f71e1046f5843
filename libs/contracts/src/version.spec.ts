import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION, CONTRACTS_VERSION } from './version';

describe('the contracts version', () => {
  it('is the one in package.json (pnpm release writes both)', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(CONTRACTS_VERSION).toBe(manifest.version);
  });

  it("gives the document's info.version as the contract's own version", () => {
    expect(API_VERSION).toBe('1.0.0');
  });
});
