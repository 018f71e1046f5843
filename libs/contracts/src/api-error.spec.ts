import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE, ERROR_CODES, ERROR_STATUS, ErrorCode } from './api-error';

describe('the error catalogue', () => {
  it('gives every code of ErrorCode a status, a description and an example', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_CATALOGUE[code]).toEqual({ status: ERROR_STATUS[code], description: expect.any(String), example: expect.any(String) });
    }
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('is the table of docs/api-rules.md, code for code and status for status', () => {
    const rules = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api-rules.md'), 'utf8');
    const rows = [...rules.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(([, status, code]) => [code, Number(status)]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code as ErrorCode, status])),
    );
  });
});
