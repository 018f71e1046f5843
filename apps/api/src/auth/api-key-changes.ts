import { Logger } from '@nestjs/common';
import { Client } from 'pg';

export interface ApiKeyChangeHandlers {
  /** A key changed (revoked, expired, rotated, deleted): the digest to forget. */
  changed(digest: string): void;
  /** Listening (again): anything missed while not listening must be forgotten. */
  listening(): void;
  /** Not listening: changes may be missed until `listening` is called again. */
  lost(): void;
}

const CHANNEL = 'api_keys_changed';
const PING_MS = 2000;
const RETRY_MS = 1000;

/**
 * Holds one connection that LISTENs for changes to api_keys (sent by the table's trigger). A ping
 * every 2 s finds a connection that died silently; while not listening, the caller falls back to a
 * short cache lifetime, so a revoked key is still refused within seconds.
 */
export class ApiKeyChangeListener {
  private readonly logger = new Logger('ApiKeys');
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    /** Undefined where no session connection can be held: the cache's short lifetime alone bounds revocation. */
    private readonly url: string | undefined,
    private readonly handlers: ApiKeyChangeHandlers,
  ) {}

  async start(): Promise<void> {
    if (!this.url) return;
    await this.connect();
    this.timer = setInterval(() => void this.ping(), PING_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 3000, query_timeout: 3000, keepAlive: true });
    client.on('notification', (message) => message.payload && this.handlers.changed(message.payload));
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      this.handlers.listening();
    } catch (error) {
      this.logger.warn(`Cannot listen for API key changes (${(error as Error).message}); retrying`);
      this.drop(client);
    }
  }

  private async ping(): Promise<void> {
    if (!this.client) return;
    await this.client.query('SELECT 1').catch(() => this.client && this.drop(this.client));
  }

  private drop(client: Client): void {
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.client === client) this.client = undefined;
    this.handlers.lost();
    if (this.stopped || this.client || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RETRY_MS).unref();
  }
}
