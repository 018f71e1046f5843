import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUS, ErrorCode } from '@petstore/contracts';

const ERRORS = join(__dirname, '..', '..', 'deploy', 'haproxy', 'errors');

/** HAProxy sends these files as they are (`errorfiles json` in deploy/haproxy/haproxy.cfg): each must be a whole, exact answer. */
describe('the balancer error pages (deploy/haproxy/errors)', () => {
  const pages = readdirSync(ERRORS).filter((name) => name.endsWith('.http'));

  it('covers the statuses HAProxy answers by itself', () => {
    expect(pages.sort()).toEqual(['400', '403', '404', '408', '413', '429', '500', '502', '503', '504'].map((code) => `${code}.http`));
  });

  it.each(pages)('%s is an Error body with its status, JSON content type and exact length', (name) => {
    const text = readFileSync(join(ERRORS, name), 'utf8');
    const [head, body] = text.split('\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    const headers = Object.fromEntries(headerLines.map((line) => line.split(': ')));
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    const parsed = JSON.parse(body) as { code: ErrorCode; message: string; status: number };
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(parsed).toEqual({ code: parsed.code, message: expect.any(String), status });
    expect(ERROR_STATUS[parsed.code]).toBe(status);
    // The catalogue has no 502 or 504: HAProxy's own are sent as 503 service_unavailable.
    if (name === '502.http' || name === '504.http') expect(parsed.code).toBe('service_unavailable');
  });
});
