import { IntegerIn, HTTP, EachEntry, Rule, hasProtocol } from '../rules';
import { Variable, parseInteger, parseList } from '../variable';

/** The HTTP server: where it listens, what one client may hold, how it drains. */
export class HttpConfig {
  @Variable({ name: 'HOST', description: 'address the HTTP server listens on (`0.0.0.0` for every interface, as in a container)' })
  host = '127.0.0.1';

  @Variable({ name: 'PORT', parse: parseInteger, description: 'port the HTTP server listens on (0–65535; 0: any free port)' })
  @IntegerIn(0, 65535)
  port = 3000;

  /** On SIGTERM: how long readiness answers 503 (and answers close their connections) before the listener closes. */
  @Variable({
    name: 'DRAIN_DELAY_MS',
    parse: parseInteger,
    description: 'on SIGTERM, how long readiness answers 503 before the listener closes (0–5000; 1500 behind HAProxy)',
  })
  @IntegerIn(0, 5000)
  drainDelayMs = 0;

  /** Browser origins allowed by CORS; empty: CORS is off. */
  @Variable({
    name: 'CORS_ORIGINS',
    parse: parseList,
    defaultNote: 'unset (CORS off)',
    example: 'https://app.example.com',
    description: 'comma-separated origins allowed to call the API from a browser',
  })
  @EachEntry((origin) =>
    hasProtocol(origin, HTTP) && new URL(origin).origin === origin
      ? undefined
      : `entry "${origin.slice(0, 100)}" must be an origin such as https://app.example.com`,
  )
  corsOrigins: string[] = [];

  /** Time allowed to receive a whole request. */
  @Variable({ name: 'REQUEST_TIMEOUT_MS', parse: parseInteger, description: 'time allowed to receive a whole request (1000–300000)' })
  @IntegerIn(1000, 300000)
  requestTimeoutMs = 10000;

  @Variable({
    name: 'MAX_CONNECTIONS',
    parse: parseInteger,
    description:
      'open client connections at most (1–100000); more are closed as they arrive (see [Security limits](docs/api-rules.md#security-limits))',
  })
  @IntegerIn(1, 100000)
  maxConnections = 1000;

  @Variable({
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    parse: parseInteger,
    description: 'how long an idle keep-alive connection is kept (1000–600000): longer than clients and the balancer keep theirs',
  })
  @IntegerIn(1000, 600000)
  keepAliveTimeoutMs = 75000;

  /** Fastify's trustProxy: the proxies whose X-Forwarded-For names the client address (unset: none). */
  @Variable({
    name: 'TRUST_PROXY',
    example: '127.0.0.1,10.0.0.0/8',
    description: 'addresses or CIDR ranges of the proxies whose `X-Forwarded-For` names the client; unset: none',
  })
  @Rule(
    (value) => /^[0-9a-fA-F.:/, ]+$/.test(String(value)),
    'must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)',
  )
  trustProxy?: string;
}
