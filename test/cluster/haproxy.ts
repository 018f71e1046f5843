import { connect } from 'node:net';
import { join } from 'node:path';

/** deploy/haproxy/haproxy.cfg, or PETSTORE_HAPROXY_CFG (e.g. an older one, to see a test fail against it). */
export const HAPROXY_CFG = process.env.PETSTORE_HAPROXY_CFG ?? join(__dirname, '..', '..', 'deploy', 'haproxy', 'haproxy.cfg');

/**
 * For suites whose load all comes from 127.0.0.1 (the contract suites, 8 clients of mixed load): lifts
 * the balancer's per-source limits, which deploy/haproxy/haproxy.cfg sets for the public. The flood
 * scenario runs on the deployed limits.
 */
export const ONE_SOURCE_LOAD = {
  HAPROXY_SOURCE_CONNECTIONS: '10000',
  HAPROXY_SOURCE_REQUESTS_PER_10S: '10000000',
  HAPROXY_SOURCE_AUTH_FAILURES_PER_MINUTE: '10000000',
};

/** Each API server's state (UP, DOWN, …) and how many times HAProxy's checks took it from UP to DOWN (its `chkdown`), from its stats socket. */
export async function apiServerStats(statsSocket: string): Promise<{ status: string; downs: number }[]> {
  const socket = connect(statsSocket);
  socket.end('show stat\n');
  let csv = '';
  for await (const chunk of socket) csv += chunk;
  const [header, ...rows] = csv
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  const column = (name: string) => header.indexOf(name === 'pxname' ? '# pxname' : name);
  return rows
    .filter((row) => row[column('pxname')] === 'api' && /^api\d/.test(row[column('svname')]))
    .map((row) => ({ status: row[column('status')], downs: Number(row[column('chkdown')]) }));
}
