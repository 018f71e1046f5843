import { connect } from 'node:net';

/** What a pg client learnt from its server's BackendKeyData (a pooler hands out keys of its own, and forwards). */
interface CancelKey {
  processID: number | null;
  secretKey: number | null;
}

/**
 * Asks the server at `url` to cancel what the connection holding `key` runs (the PostgreSQL CancelRequest,
 * on a connection of its own). Best effort: resolves after the request is written, or after `timeoutMs`.
 */
export function cancelStatement(url: string, key: CancelKey, timeoutMs = 300): Promise<void> {
  if (key.processID === null || key.secretKey === null) return Promise.resolve();
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(80877102, 4); // the cancel request code: 1234 << 16 | 5678
  request.writeInt32BE(key.processID, 8);
  request.writeInt32BE(key.secretKey, 12);
  const { hostname, port, searchParams } = new URL(url);
  const socketDir = searchParams.get('host');
  return new Promise((resolve) => {
    const socket = socketDir?.startsWith('/')
      ? connect(`${socketDir}/.s.PGSQL.${port || 5432}`)
      : connect(Number(port || 5432), hostname.replace(/^\[|\]$/g, ''));
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('error', done);
    // The server answers nothing; it closes the connection once it has read the request.
    socket.on('close', done);
    socket.on('connect', () => socket.write(request));
  });
}
