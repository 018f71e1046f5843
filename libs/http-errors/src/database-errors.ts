// No imports: the key tool reads these without loading NestJS (`@petstore/http-errors/database-errors`).

const UNAVAILABLE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'timeout expired', // pg's own connect timeout (a client's connectionTimeoutMillis)
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection is not established',
  'canceling statement due to statement timeout',
  'terminating connection',
  'Client was closed and is not queryable',
];
/** SQLSTATEs of a database that will not serve us now: no database, role refused, too many connections, shutdown, statement timeout. */
export const UNAVAILABLE_SQLSTATES = new Set(['3D000', '28000', '28P01', '53300', '57P01', '57P02', '57P03', '57014']);

/** The error and the errors it wraps (TypeORM's `driverError`, `cause`), a few levels deep. */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    yield current;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
}

/** True when the error says the database cannot be reached or did not answer in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return [...causes(error)].some(({ code, message }) => {
    const text = typeof message === 'string' ? message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => text.includes(m))) return true;
    if (typeof code !== 'string') return false;
    if (UNAVAILABLE_NETWORK_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code)) return true;
    return code === '55000' && text.includes('not currently accepting connections');
  });
}

/** Out of disk space (PostgreSQL's 53100, or ENOSPC): an operating condition, a 503 until space returns. */
export function isOutOfSpace(error: unknown): boolean {
  return [...causes(error)].some(({ code }) => code === '53100' || code === 'ENOSPC');
}
