import { IntegerIn, OneOf, POSTGRES, UrlOf } from '../rules';
import { Variable, parseInteger } from '../variable';

const BOTH = ['service', 'tool'] as const;

/** The PostgreSQL server, or the embedded PostgreSQL (PGlite) when there is none. */
export class DatabaseConfig {
  /** A PostgreSQL server; when absent the embedded PostgreSQL (PGlite) is used. */
  @Variable({
    name: 'DATABASE_URL',
    usedBy: BOTH,
    example: 'postgres://postgres@127.0.0.1:5432/petstore',
    defaultNote: 'unset (embedded PostgreSQL)',
    description: '`postgres://…` of a PostgreSQL server; unset: the embedded PostgreSQL (PGlite) in `DATA_DIR`',
  })
  @UrlOf(POSTGRES, 'a postgres:// or postgresql:// URL')
  url?: string;

  /** Where the embedded PostgreSQL keeps its files (made absolute against the working directory). */
  @Variable({ name: 'DATA_DIR', usedBy: BOTH, description: 'where the embedded PostgreSQL keeps its files (relative to the working directory)' })
  dataDir = '.data';

  /** Connections the service keeps open to a PostgreSQL server. */
  @Variable({ name: 'DATABASE_POOL_SIZE', parse: parseInteger, description: 'connections kept open to a PostgreSQL server (1–100)' })
  @IntegerIn(1, 100)
  poolSize = 10;

  /**
   * `transaction` when DATABASE_URL is a transaction pooler (PgBouncer `pool_mode = transaction`): no
   * session state (named statements, startup parameters, LISTEN) survives one transaction there.
   */
  @Variable({
    name: 'DATABASE_POOLING',
    usedBy: BOTH,
    description:
      '`transaction` when `DATABASE_URL` is a transaction pooler such as PgBouncer (see [Scaling out](docs/scaling.md#through-a-transaction-pooler))',
  })
  @OneOf(['session', 'transaction'], 'session (direct or session pooling) or transaction (a transaction pooler such as PgBouncer)')
  pooling: 'session' | 'transaction' = 'session';

  /** A direct (session) connection to the same database, for LISTEN and migrations behind a pooler. */
  @Variable({
    name: 'DATABASE_DIRECT_URL',
    usedBy: BOTH,
    example: 'postgres://postgres@db-primary:5432/petstore',
    description: 'the database itself when `DATABASE_URL` is a pooler: for `LISTEN` and migrations',
  })
  @UrlOf(POSTGRES, 'a postgres:// or postgresql:// URL')
  directUrl?: string;
}
