import knexFactory, { type Knex } from 'knex';
import type pg from 'pg';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresConnection, type ConnectionExtras, type DatabaseRole } from './connection.js';

export type Db = Knex;
export type Tx = Knex.Transaction;

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A caller waits this long at most for a pool connection (knex's default is 60 s). */
const ACQUIRE_TIMEOUT_MS = 10_000;

/** Connections a pool opens at most, unless DB_POOL_MAX says otherwise (lib/config.ts). */
export const DEFAULT_POOL_MAX = 10;

export interface DbOptions extends ConnectionExtras {
  /** Shown in pg_stat_activity as svc-postal-<role>. */
  role: DatabaseRole;
  poolMax?: number;
}

/**
 * A connection pool. Each process part has its own (the API's and the worker's, even inside
 * `npm start`), so that a burst on one side can never starve the other. TLS and the application
 * name come from db/connection.ts.
 */
export function createDb(databaseUrl: string, options: DbOptions): Db {
  const { role, poolMax = DEFAULT_POOL_MAX, ...extras } = options;
  return knexFactory({
    client: 'pg',
    connection: postgresConnection(databaseUrl, role, extras) as Knex.PgConnectionConfig,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    migrations: { directory: migrationsDir, loadExtensions: ['.js'], tableName: 'knex_migrations' },
  });
}

/**
 * A named prepared statement on a pool connection, past knex's query builder: Postgres parses and
 * plans it once per connection, and the call skips knex's per-query machinery. For the hottest
 * statements only (GET /v1/mailings/{id}, each move of a mailing); `text` uses $1, $2… In a
 * transaction, on its connection: knex hands a transaction's own connection back, and releasing
 * it there does nothing. A named statement outlives a rollback, and one that failed to parse is
 * parsed again at its next use (node-postgres records it only once the server has parsed it).
 */
export async function preparedQuery<R>(db: Db | Tx, name: string, text: string, values: unknown[], options: { timeoutMs?: number } = {}): Promise<R[]> {
  if (db.isTransaction && (db as Tx).isCompleted()) throw new Error(`the transaction is over: statement ${name} not run`);
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    const running = connection.query<R & pg.QueryResultRow>({ name, text, values });
    return (await (options.timeoutMs === undefined ? running : cancelledPast(db, connection, running, options.timeoutMs))).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * A statement bounded on the server's side, as knex's `.timeout(ms, { cancel: true })`: past `ms`,
 * the server is asked (from another connection) to cancel it, so that it cannot commit later; it
 * then fails with 57014. Settled before its connection goes back to the pool: a late cancel finds
 * the connection idle, where Postgres ignores it.
 */
async function cancelledPast<T>(db: Db | Tx, connection: pg.PoolClient, running: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), ms);
  });
  try {
    const first = await Promise.race([running, overdue]);
    if (first !== 'overdue') return first;
  } finally {
    clearTimeout(timer);
  }
  const pid = (connection as unknown as { processID: number }).processID;
  // A cancel that cannot be sent leaves the statement to its end: its outcome, late, is then the
  // answer, and its connection goes back to the pool only once it is free.
  await db.client.cancelQuery({ processID: pid }).catch(() => undefined);
  return running;
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}

/** Migrations of this build not yet applied to the database (none once `migrate` ran). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [, pending] = (await db.migrate.list()) as [unknown[], { file: string }[]];
  return pending.map((migration) => migration.file);
}

/** How long a migration may wait for a lock, and run one statement (MIGRATION_LOCK_TIMEOUT, MIGRATION_STATEMENT_TIMEOUT). */
export interface MigrationTimeouts {
  migrationLockTimeoutMs: number;
  migrationStatementTimeoutMs: number;
}

/**
 * A pool for migrations alone. Its lock_timeout matters most: an ALTER TABLE queued behind a long
 * transaction holds every later reader and writer of the table behind it, so the API would stall
 * for as long as that transaction lasts; past the timeout the migration fails instead (rolled back,
 * to be run again), and traffic goes on. Two connections: knex's migration lock and the migration.
 */
export function createMigrationDb(databaseUrl: string, timeouts: MigrationTimeouts): Db {
  return createDb(databaseUrl, {
    role: 'migrate',
    poolMax: 2,
    lockTimeoutMs: timeouts.migrationLockTimeoutMs,
    statementTimeoutMs: timeouts.migrationStatementTimeoutMs,
  });
}

/**
 * What a deployed process does with the schema at start: applies the migrations (MIGRATE_ON_START,
 * the default outside production: knex locks, so processes starting together migrate once) on a
 * migration pool of their own, or refuses to run on a schema older than its build (production:
 * `node dist/scripts/migrate.js` runs first, as a Helm hook or the compose `migrate` service).
 */
export async function prepareSchema(databaseUrl: string, db: Db, settings: { migrateOnStart: boolean; database: MigrationTimeouts }): Promise<void> {
  if (settings.migrateOnStart) {
    const migrationDb = createMigrationDb(databaseUrl, settings.database);
    try {
      await migrateLatest(migrationDb);
    } finally {
      await migrationDb.destroy();
    }
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length)
    throw new Error(`${pending.length} migration(s) not applied (${pending.join(', ')}): run node dist/scripts/migrate.js first, or set MIGRATE_ON_START=1`);
}

/** Socket errors that mean the server cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** What node-postgres and knex say, without a code, when a connection is lost or cannot be had. */
const UNAVAILABLE_MESSAGE = /Connection terminated|terminating connection|not queryable|Timeout acquiring a connection/;

/**
 * True when `error` says the database cannot be reached right now (refused, reset, shut down,
 * starting up, no pool connection in time), rather than that a statement is wrong: the one place
 * that knows the drivers' words for an outage. Looks through `cause` and AggregateError.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code, name } = error as Error & { code?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (name === 'KnexTimeoutError' && /acquiring a connection/.test(error.message)) return true;
  if (typeof code !== 'string' && UNAVAILABLE_MESSAGE.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
