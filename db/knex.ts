import knexFactory, { type Knex } from 'knex';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Knex;
export type Tx = Knex.Transaction;

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A caller waits this long at most for a pool connection (knex's default is 60 s). */
const ACQUIRE_TIMEOUT_MS = 10_000;

/**
 * A connection pool. Each process part has its own (the API's and the worker's, even inside
 * `npm start`), so that a burst on one side can never starve the other.
 */
export function createDb(databaseUrl: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    migrations: { directory: migrationsDir, loadExtensions: ['.js'], tableName: 'knex_migrations' },
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}
